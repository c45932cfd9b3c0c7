using System;
using System.Collections.Generic;
using System.Linq;

class Program
{
    static IEnumerable<int> Evens(int limit)
    {
        for (int i = 0; i < limit; i += 2)
            yield return i;
    }

    static IEnumerable<string> Names()
    {
        yield return "cube";
        yield return "ball";
        yield break;
    }

    static void Main()
    {
        foreach (var e in Evens(7)) Console.Write(e + " ");
        Console.WriteLine();
        Console.WriteLine(string.Join(",", Names()));
        Console.WriteLine(Evens(100).Take(3).Sum());
    }
}
