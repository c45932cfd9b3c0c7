using System;

class Program
{
    static (int count, float mean) Stats(float[] values)
    {
        float sum = 0;
        foreach (var v in values) sum += v;
        return (values.Length, sum / values.Length);
    }

    static void Main()
    {
        var t = (1, "one");
        Console.WriteLine(t.Item1 + " " + t.Item2);
        (int a, string b) named = (2, "two");
        Console.WriteLine(named.a + named.b);
        var (count, mean) = Stats(new float[] { 1, 2, 4 });
        Console.WriteLine(count + " " + mean);
        int x = 1, y = 2;
        (x, y) = (y, x);
        Console.WriteLine(x + " " + y);
        var pairs = new[] { (1, 2.5f), (3, 4f) };
        foreach (var pair in pairs)
        {
            var (i, f) = pair;
            Console.WriteLine(i * f);
        }
        var s = Stats(new float[] { 3, 3 });
        Console.WriteLine(s.count + " " + s.mean);
        Console.WriteLine(t);
    }
}
