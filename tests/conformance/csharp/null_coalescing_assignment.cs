// C# 8 (`??=`, index from the end `^1`): mcs compiles C# up to 7, so this program's output is
// worked out from the C# specification (the C# 8 null-coalescing assignment and ranges
// proposals) and kept in null_coalescing_assignment.expected.txt.
using System;
using System.Collections.Generic;

class Program
{
    static List<int> cache;

    static void Main()
    {
        cache ??= new List<int>();
        cache.Add(1);
        cache ??= new List<int> { 9, 9 };
        Console.WriteLine(cache.Count);
        string s = null;
        s ??= "set";
        s ??= "again";
        Console.WriteLine(s);
        int[] a = { 1, 2, 3 };
        Console.WriteLine(a[^1]);
    }
}
