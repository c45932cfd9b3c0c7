using System;

class Program
{
    static int Sum(params int[] values)
    {
        int total = 0;
        foreach (var v in values) total += v;
        return total;
    }

    static string Make(string kind, float size = 1, string color = "grey")
    {
        return kind + "/" + size + "/" + color;
    }

    static void Main()
    {
        Console.WriteLine(Sum());
        Console.WriteLine(Sum(1, 2, 3));
        Console.WriteLine(Sum(new[] { 4, 5 }));
        Console.WriteLine(Make("cube"));
        Console.WriteLine(Make("ball", 0.5f));
        Console.WriteLine(Make("cone", color: "red"));
        Console.WriteLine(Make(size: 3, kind: "box"));
    }
}
