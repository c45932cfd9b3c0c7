using System;
using System.Linq;
using System.Collections.Generic;

class Item
{
    public string Kind;
    public float Size;
}

class Program
{
    static void Main()
    {
        var items = new List<Item>
        {
            new Item { Kind = "cube", Size = 1 },
            new Item { Kind = "ball", Size = 0.5f },
            new Item { Kind = "cube", Size = 2 },
            new Item { Kind = "cone", Size = 1.5f },
            new Item { Kind = "ball", Size = 1 },
        };
        foreach (var g in items.GroupBy(i => i.Kind))
            Console.WriteLine(g.Key + " " + g.Count() + " " + g.Sum(i => i.Size));
        var bySize = items.ToDictionary(i => i.Kind + i.Size, i => i.Size * 2);
        Console.WriteLine(bySize["cube2"]);
        var nested = new[] { new[] { 1, 2 }, new[] { 3 }, new int[0] };
        Console.WriteLine(string.Join(",", nested.SelectMany(a => a)));
        var zipped = new[] { 1, 2, 3 }.Zip(new[] { "a", "b" }, (n, s) => s + n);
        Console.WriteLine(string.Join(",", zipped));
        Console.WriteLine(Enumerable.Range(1, 5).Aggregate((a, b) => a * b));
        Console.WriteLine(string.Join(",", Enumerable.Repeat("x", 3)));
        Console.WriteLine(string.Join(",", Enumerable.Range(0, 4).Select(i => i * 0.5)));
        var kinds = items.Select(i => i.Kind).Distinct().OrderBy(k => k).ToArray();
        Console.WriteLine(kinds.Length + " " + kinds[0]);
        Console.WriteLine(items.Max(i => i.Size) + " " + items.Where(i => i.Kind == "ball").Average(i => i.Size));
    }
}
