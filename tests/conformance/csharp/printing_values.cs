using System;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        Console.WriteLine(true);
        Console.WriteLine(false);
        Console.WriteLine((object)null);
        Console.WriteLine(12);
        Console.WriteLine(-0.5f);
        Console.WriteLine(1.0);
        Console.WriteLine(100000000.0);
        Console.WriteLine(1234567890123456789L);
        Console.WriteLine('c');
        Console.WriteLine("");
        Console.Write("a");
        Console.Write(1);
        Console.Write(2.5);
        Console.WriteLine();
        Console.WriteLine("{0} {1}", "fmt", 3);
        Console.WriteLine(new int[0].Length);
        Console.WriteLine(0.000123);
        Console.WriteLine(1e15);
        Console.WriteLine(123456789012345678.0);
        Console.WriteLine(float.MaxValue);
        Console.WriteLine(double.NaN);
        Console.WriteLine(1.0 / 0);
    }
}
