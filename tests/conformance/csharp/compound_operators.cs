using System;

class Program
{
    static void Main()
    {
        int a = 5;
        a += 3;
        a -= 1;
        a *= 2;
        a /= 3;
        a %= 3;
        Console.WriteLine(a);
        int b = 1;
        Console.WriteLine(b++ + " " + b + " " + ++b + " " + b--);
        Console.WriteLine(b);
        int bits = 0b1010;
        Console.WriteLine((bits & 6) + " " + (bits | 1) + " " + (bits ^ 15) + " " + (bits << 2) + " " + (bits >> 1));
        Console.WriteLine(~bits);
        Console.WriteLine(-17 >> 2);
        bool t = true;
        t &= false;
        Console.WriteLine(t);
        float f = 1;
        f /= 4;
        Console.WriteLine(f);
        int c = 7;
        c /= 2;
        Console.WriteLine(c);
        string s = "a";
        s += 1;
        s += 2.5f;
        Console.WriteLine(s);
        Console.WriteLine(a > 0 ? "pos" : a < 0 ? "neg" : "zero");
        Console.WriteLine(0x1F + 1000);
    }
}
