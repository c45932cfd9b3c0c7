using System;

class Program
{
    static void Main()
    {
        // Values in variables: mcs folds Math.Round of a constant itself, rounding halves away
        // from zero (2.5 -> 3), where the runtime's Math.Round rounds them to even.
        double two = 2, half = 2.5, three = 3.5, minus = -2.5, fine = 2.345;
        Console.WriteLine(Math.Sqrt(two));
        Console.WriteLine(Math.Pow(two, 10));
        Console.WriteLine(Math.Abs(-3) + " " + Math.Abs(minus));
        Console.WriteLine(Math.Max(3, 7) + " " + Math.Min(1.5, -1));
        Console.WriteLine(Math.Floor(minus) + " " + Math.Ceiling(2.1));
        Console.WriteLine(Math.Round(half) + " " + Math.Round(three) + " " + Math.Round(minus));
        Console.WriteLine(Math.Round(fine, 2));
        Console.WriteLine(Math.Round(half, MidpointRounding.AwayFromZero));
        Console.WriteLine(Math.Atan2(1, 1) * 180 / Math.PI);
        Console.WriteLine(Math.Sin(Math.PI / 6));
        Console.WriteLine(Math.PI);
        Console.WriteLine(Math.Sign(-4.2) + " " + Math.Truncate(-4.7));
        Console.WriteLine(Math.Clamp(5, 0, 3));
        double four = 4.5, five = 5.5;
        Console.WriteLine((int)Math.Round(four) + (int)Math.Round(five));
        float angle = 30f;
        Console.WriteLine(Math.Cos(angle * Math.PI / 180));
        float halfFloat = 2.5f;
        Console.WriteLine(Math.Round(halfFloat));
        Console.WriteLine(Math.Max(2, 2.5f));
    }
}
