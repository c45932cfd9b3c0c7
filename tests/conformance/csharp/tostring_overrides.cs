using System;
using System.Collections.Generic;

class Shape
{
    public string Kind;
    public float Size;
    public override string ToString() { return Kind + "(" + Size + ")"; }
}

class Program
{
    static void Main()
    {
        var s = new Shape { Kind = "cube", Size = 1.5f };
        Console.WriteLine(s);
        Console.WriteLine("made " + s);
        Console.WriteLine($"[{s}]");
        Console.WriteLine(s.ToString().Length);
        var list = new List<Shape> { s, new Shape { Kind = "ball", Size = 2 } };
        Console.WriteLine(string.Join("; ", list));
    }
}
