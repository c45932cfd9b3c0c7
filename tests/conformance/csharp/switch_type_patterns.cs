// C# 7 type patterns in a switch (`case int i when ...:`): Mono's mcs 6.8 does not implement
// them ("type pattern matching" is not implemented), so this program's output is worked out
// from the C# specification (C# 7.0 pattern matching: cases are tried in order, `case null`
// matches only null, a type pattern matches a non-null value of that type, `when` guards it)
// and kept in switch_type_patterns.expected.txt.
using System;

class Circle { public double R; }
class Rect { public double W, H; }

class Program
{
    static string Classify(object o)
    {
        switch (o)
        {
            case null:
                return "null";
            case int i when i > 10:
                return "big int " + i;
            case int i:
                return "int " + i;
            case string s:
                return "string of " + s.Length;
            case Circle c when c.R == 0:
                return "point";
            case Circle c:
                return "circle " + c.R;
            case Rect r:
                return "rect " + (r.W * r.H);
            default:
                return "other";
        }
    }

    static void Main()
    {
        object[] things = { 3, 42, "hello", new Circle { R = 2 }, new Circle(), new Rect { W = 2, H = 3 }, 1.5, null };
        foreach (var t in things) Console.WriteLine(Classify(t));
    }
}
