using System;

class Program
{
    static void Main()
    {
        Console.WriteLine(Math.Sqrt(2));
        Console.WriteLine(Math.Pow(2, 10));
        Console.WriteLine(Math.Abs(-3) + " " + Math.Abs(-2.5));
        Console.WriteLine(Math.Max(3, 7) + " " + Math.Min(1.5, -1));
        Console.WriteLine(Math.Floor(-2.5) + " " + Math.Ceiling(2.1));
        Console.WriteLine(Math.Round(2.5) + " " + Math.Round(3.5) + " " + Math.Round(-2.5));
        Console.WriteLine(Math.Round(2.345, 2));
        Console.WriteLine(Math.Round(2.5, MidpointRounding.AwayFromZero));
        Console.WriteLine(Math.Atan2(1, 1) * 180 / Math.PI);
        Console.WriteLine(Math.Sin(Math.PI / 6));
        Console.WriteLine(Math.PI);
        Console.WriteLine(Math.Sign(-4.2) + " " + Math.Truncate(-4.7));
        Console.WriteLine(Math.Clamp(5, 0, 3));
        Console.WriteLine((int)Math.Round(4.5) + (int)Math.Round(5.5));
    }
}
