// C# 7 deconstruction in a foreach (`foreach (var (i, f) in pairs)`): Mono's mcs 6.8 does not
// parse it, so this program's output is worked out from the C# specification (C# 7.0
// deconstruction: each element is deconstructed into the declared variables in order) and
// kept in foreach_deconstruction.expected.txt.
using System;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        var pairs = new[] { (1, 2.5f), (3, 4f) };
        foreach (var (i, f) in pairs) Console.WriteLine(i * f);
        var named = new List<(string Kind, int Count)> { ("cube", 2), ("cone", 1) };
        foreach (var (kind, count) in named) Console.WriteLine(kind + count);
        foreach ((int a, float b) in pairs) Console.WriteLine(a + b);
    }
}
