// C# 7 deconstruction through a user Deconstruct method: Mono's mcs 6.8 fails on it with an
// internal error ("Custom deconstruct"), so this program's output is worked out from the C#
// specification (C# 7.0 deconstruction calls Deconstruct(out ...) and binds the outs in order;
// `_` discards one) and kept in deconstruct_method.expected.txt.
using System;

class Placement
{
    public float X, Y;
    public string Kind;
    public Placement(string kind, float x, float y) { Kind = kind; X = x; Y = y; }
    public void Deconstruct(out string kind, out float x, out float y)
    {
        kind = Kind;
        x = X;
        y = Y;
    }
}

class Program
{
    static void Main()
    {
        var p = new Placement("cube", 1.5f, -2);
        var (kind, x, y) = p;
        Console.WriteLine(kind + " " + x + " " + y);
        (string k, _, float yy) = new Placement("ball", 0, 9);
        Console.WriteLine(k + " " + yy);
    }
}
