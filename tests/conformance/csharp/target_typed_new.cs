// C# 9 (target-typed `new()`): mcs compiles C# up to 7, so this program's output is worked
// out from the C# specification (the C# 9 target-typed new proposal: the type is the
// declared type of the target) and kept in target_typed_new.expected.txt.
using System;
using System.Collections.Generic;

struct Point
{
    public int X, Y;
    public Point(int x, int y) { X = x; Y = y; }
}

class Program
{
    static Point origin = new();

    static void Main()
    {
        Point p = new(3, 4);
        Console.WriteLine(p.X + p.Y);
        List<string> names = new() { "a", "b" };
        Console.WriteLine(names.Count);
        Console.WriteLine(origin.X);
        Dictionary<string, int> d = new();
        d["k"] = 2;
        Console.WriteLine(d["k"]);
    }
}
