using System;

class Program
{
    static void Main()
    {
        Console.WriteLine((int)3.7);
        Console.WriteLine((int)-3.7);
        Console.WriteLine((int)2.5f);
        double d = 1.23456789012;
        float f = (float)d;
        Console.WriteLine(f);
        Console.WriteLine((long)1e10);
        int wide = 300;
        Console.WriteLine((byte)wide);
        int wider = 70000;
        Console.WriteLine((short)wider);
        Console.WriteLine('a' + 1);
        Console.WriteLine((char)('a' + 2));
        char c = 'x';
        c++;
        Console.WriteLine(c);
        Console.WriteLine((int)'A');
        Console.WriteLine(5 / 2 * 2.0);
        Console.WriteLine((double)5 / 2);
        Console.WriteLine((float)1 / 3);
        int i = (int)(0.1 * 30);
        Console.WriteLine(i);
        Console.WriteLine(Convert.ToInt32(2.5) + " " + Convert.ToInt32(3.5));
        int minusOne = -1;
        Console.WriteLine((uint)minusOne);
    }
}
