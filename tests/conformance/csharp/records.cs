// C# 9 (records, with-expressions): mcs compiles C# up to 7, so this program's output is
// worked out from the C# specification (the C# 9 records proposal: value equality,
// synthesized ToString "Name { P = v, ... }", non-destructive mutation) and kept in
// records.expected.txt.
using System;

record Placement(string Kind, int X, int Y);

record Tagged(string Tag)
{
    public int Count { get; init; } = 1;
}

class Program
{
    static void Main()
    {
        var a = new Placement("cube", 1, 2);
        var b = new Placement("cube", 1, 2);
        Console.WriteLine(a == b);
        Console.WriteLine(ReferenceEquals(a, b));
        var c = a with { X = 5 };
        Console.WriteLine(c.X + " " + a.X);
        Console.WriteLine(c == a);
        Console.WriteLine(a);
        var (kind, x, y) = c;
        Console.WriteLine(kind + x + y);
        var t = new Tagged("t") { Count = 3 };
        Console.WriteLine(t.Tag + t.Count);
        Console.WriteLine((t with { Tag = "u" }).Count);
    }
}
