// C# 8 (switch expressions, property and relational patterns): mcs compiles C# up to 7, so
// this program's output is worked out from the C# specification (ECMA-334 / the C# 8 and 9
// proposals on switch expressions and patterns) and kept in switch_expressions.expected.txt.
using System;

enum Kind { Cube, Sphere, Cone, Torus }

class Program
{
    static float Height(Kind k) => k switch
    {
        Kind.Cube => 1f,
        Kind.Cone => 2.5f,
        Kind.Torus => 0.5f,
        _ => 0f,
    };

    static string Size(int n) => n switch
    {
        0 => "none",
        1 or 2 => "few",
        < 10 => "some",
        _ => "many",
    };

    static string Describe(object o) => o switch
    {
        int i when i < 0 => "negative",
        int i => "int " + i,
        string s => "text " + s.Length,
        null => "null",
        _ => "other",
    };

    static void Main()
    {
        foreach (Kind k in new[] { Kind.Cube, Kind.Sphere, Kind.Cone, Kind.Torus })
            Console.WriteLine(k + " " + Height(k));
        foreach (int n in new[] { 0, 2, 7, 30 })
            Console.WriteLine(Size(n));
        Console.WriteLine(Describe(-4));
        Console.WriteLine(Describe(4));
        Console.WriteLine(Describe("abc"));
        Console.WriteLine(Describe(null));
        Console.WriteLine(Describe(1.5));
    }
}
