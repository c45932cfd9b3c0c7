using System;

class Program
{
    static void Main()
    {
        Console.WriteLine(string.Format("{0} and {1}", 1, "two"));
        Console.WriteLine(string.Format("{0:F3}|{0,7:F1}|{1,-6}|", 2.0 / 3, "x"));
        Console.WriteLine(String.Format("{1}{0}{1}", "-", "="));
        Console.WriteLine("{0}-{1}", 5, 6.5f);
        Console.WriteLine((12.3456).ToString("F2"));
        Console.WriteLine((7).ToString("D3"));
        Console.WriteLine((0.5).ToString("0.0#"));
        Console.WriteLine((1.005).ToString("F2"));
        Console.WriteLine((3.0f).ToString());
        Console.WriteLine(string.Format("{0:0.##}", 1.5));
        Console.WriteLine(string.Join(", ", new[] { 1, 2, 3 }));
        Console.WriteLine(string.Concat("a", 1, 2.5));
        Console.WriteLine("x".PadLeft(3, '.') + "y".PadRight(3, '_') + "|");
    }
}
