using System;

class Program
{
    static void Main()
    {
        Console.WriteLine(0.1 + 0.2);
        Console.WriteLine(0.1f + 0.2f);
        float third = 1f / 3f;
        Console.WriteLine(third);
        Console.WriteLine((double)third);
        Console.WriteLine(1.0 / 3.0);
        double widened = 0.1f;
        Console.WriteLine(widened);
        Console.WriteLine(0.1f == 0.1);
        Console.WriteLine((float)0.1 == 0.1f);
        float big = 16777216f;
        Console.WriteLine(big + 1f == big);
        Console.WriteLine(2.5f * 4);
        Console.WriteLine(1e20);
        Console.WriteLine(1.5e-7);
        Console.WriteLine(123456789.0f);
        Console.WriteLine(-0.0);
    }
}
