// C# 8 (property patterns, positional patterns on tuples): mcs compiles C# up to 7, so this
// program's output is worked out from the C# specification (the C# 8 recursive-patterns
// proposal) and kept in property_patterns.expected.txt.
using System;

class Part
{
    public string Kind;
    public float Size;
}

class Program
{
    static string Name(Part p) => p switch
    {
        { Kind: "cone", Size: > 1 } => "big cone",
        { Kind: "cone" } => "cone",
        { Size: 0 } => "flat",
        _ => "part",
    };

    static string Quadrant(int x, int y) => (x, y) switch
    {
        (0, 0) => "origin",
        ( > 0, > 0) => "first",
        (_, < 0) => "below",
        _ => "elsewhere",
    };

    static void Main()
    {
        Console.WriteLine(Name(new Part { Kind = "cone", Size = 2 }));
        Console.WriteLine(Name(new Part { Kind = "cone", Size = 1 }));
        Console.WriteLine(Name(new Part { Kind = "box", Size = 0 }));
        Console.WriteLine(Name(new Part { Kind = "box", Size = 3 }));
        Console.WriteLine(Quadrant(0, 0));
        Console.WriteLine(Quadrant(2, 3));
        Console.WriteLine(Quadrant(-2, -3));
        Console.WriteLine(Quadrant(-2, 3));
        var p = new Part { Kind = "cube", Size = 1.5f };
        if (p is { Size: > 1 } big) Console.WriteLine(big.Kind);
    }
}
