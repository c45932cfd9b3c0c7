using System;

class Program
{
    static void Main()
    {
        Console.WriteLine(7 / 2);
        Console.WriteLine(-7 / 2);
        Console.WriteLine(7 % 3);
        Console.WriteLine(-7 % 3);
        Console.WriteLine(7 % -3);
        Console.WriteLine(7.0 / 2);
        Console.WriteLine(7 / 2.0f);
        int count = 5;
        float half = count / 2;
        Console.WriteLine(half);
        float real = count / 2f;
        Console.WriteLine(real);
        double mixed = count / 4 * 1.0;
        Console.WriteLine(mixed);
        Console.WriteLine(1 / 3 * 3);
        Console.WriteLine(10 / 3 + 10 % 3);
        long big = 3000000000L / 7;
        Console.WriteLine(big);
        Console.WriteLine(5.5 % 2);
    }
}
