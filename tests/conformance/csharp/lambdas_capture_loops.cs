using System;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        var fromFor = new List<Func<int>>();
        for (int i = 0; i < 3; i++)
            fromFor.Add(() => i);
        foreach (var f in fromFor) Console.Write(f() + " ");
        Console.WriteLine();

        var fromForCopy = new List<Func<int>>();
        for (int i = 0; i < 3; i++)
        {
            int copy = i;
            fromForCopy.Add(() => copy * 10);
        }
        foreach (var f in fromForCopy) Console.Write(f() + " ");
        Console.WriteLine();

        var fromForeach = new List<Func<string>>();
        foreach (var name in new[] { "a", "b", "c" })
            fromForeach.Add(() => name);
        foreach (var f in fromForeach) Console.Write(f());
        Console.WriteLine();

        int counter = 0;
        Action inc = () => counter++;
        inc();
        inc();
        Console.WriteLine(counter);
        Func<int, int, int> add = (a, b) => a + b;
        Func<float, float> half = x => x / 2;
        Console.WriteLine(add(2, 3) + " " + half(5));
    }
}
