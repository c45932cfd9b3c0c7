using System;

class Program
{
    static void Main()
    {
        int? a = null;
        int? b = 5;
        Console.WriteLine(a.HasValue + " " + b.HasValue);
        Console.WriteLine(a ?? -1);
        Console.WriteLine(b.Value + 1);
        Console.WriteLine(a.GetValueOrDefault() + " " + b.GetValueOrDefault(9));
        Console.WriteLine(a == null);
        int? sum = a + b;
        Console.WriteLine(sum == null);
        float? f = 1.5f;
        Console.WriteLine(f * 2);
        string s = null;
        Console.WriteLine(s?.Length == null);
        Console.WriteLine((s ?? "fallback").Length);
    }
}
