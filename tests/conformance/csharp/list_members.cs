using System;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        var xs = new List<int> { 4, 1, 3 };
        xs.Add(2);
        xs.Insert(0, 9);
        Console.WriteLine(string.Join(",", xs) + " " + xs.Count);
        xs.Remove(3);
        xs.RemoveAt(0);
        Console.WriteLine(string.Join(",", xs));
        Console.WriteLine(xs.Contains(4) + " " + xs.IndexOf(2));
        xs.Sort();
        Console.WriteLine(string.Join(",", xs));
        xs.Reverse();
        Console.WriteLine(string.Join(",", xs));
        xs[0] = 100;
        Console.WriteLine(xs[0] + xs[xs.Count - 1]);
        var copy = new List<int>(xs);
        copy.Clear();
        Console.WriteLine(xs.Count + " " + copy.Count);
        xs.AddRange(new[] { 7, 8 });
        Console.WriteLine(xs.Count);
        var names = new List<string>();
        names.Add("b");
        names.Add("a");
        names.Sort();
        Console.WriteLine(names[0]);
        xs.RemoveAll(x => x > 50);
        Console.WriteLine(string.Join(",", xs));
        Console.WriteLine(xs.Find(x => x > 5));
        Console.WriteLine(xs.FindIndex(x => x == 8));
    }
}
