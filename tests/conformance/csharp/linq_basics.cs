using System;
using System.Linq;
using System.Collections.Generic;

class Program
{
    static void Main()
    {
        int[] numbers = { 5, 3, 8, 1, 9, 2, 8 };
        var evens = numbers.Where(n => n % 2 == 0).ToList();
        Console.WriteLine(string.Join(",", evens));
        Console.WriteLine(string.Join(",", numbers.Select(n => n * 10)));
        Console.WriteLine(string.Join(",", numbers.OrderBy(n => n)));
        Console.WriteLine(string.Join(",", numbers.OrderByDescending(n => n).Take(3)));
        Console.WriteLine(numbers.Sum() + " " + numbers.Max() + " " + numbers.Min());
        Console.WriteLine(numbers.Average());
        Console.WriteLine(numbers.Count(n => n > 4));
        Console.WriteLine(numbers.Any(n => n > 8) + " " + numbers.All(n => n > 0));
        Console.WriteLine(numbers.First(n => n > 5) + " " + numbers.Last());
        Console.WriteLine(numbers.FirstOrDefault(n => n > 100));
        Console.WriteLine(string.Join(",", numbers.Distinct()));
        Console.WriteLine(string.Join(",", numbers.Skip(2).Take(2)));
        var words = new List<string> { "cone", "cube", "sphere", "torus" };
        Console.WriteLine(string.Join(" ", words.OrderBy(w => w.Length).ThenByDescending(w => w)));
        Console.WriteLine(string.Join(" ", words.Select((w, i) => i + w)));
        Console.WriteLine(words.Select(w => w.Length).Sum());
    }
}
