using System;

class Program
{
    static void Main()
    {
        double x = 3.14159;
        int n = 42;
        float f = 2.5f;
        string s = "ab";
        Console.WriteLine($"x={x}");
        Console.WriteLine($"[{x,8:F2}]");
        Console.WriteLine($"[{n,-5}]");
        Console.WriteLine($"[{n:D5}]");
        Console.WriteLine($"[{f:0.00}]");
        Console.WriteLine($"[{s,4}|{s,-4}]");
        Console.WriteLine($"{n:X} {n:x4}");
        Console.WriteLine($"{0.256:P1}");
        Console.WriteLine($"{1234567.891:N2}");
        Console.WriteLine($"{x:E2}");
        Console.WriteLine($"{(n > 40 ? "big" : "small")}");
        Console.WriteLine($"{{braces}} {n}");
        Console.WriteLine($"{2.5:F0} {3.5:F0} {-2.5:F0}");
        Console.WriteLine($"{1.0 / 3}");
        Console.WriteLine($"{true} {null}");
    }
}
