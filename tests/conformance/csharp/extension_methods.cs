using System;

static class Extensions
{
    public static float Squared(this float v) { return v * v; }
    public static string Shout(this string s, int times) { return s.ToUpper() + new string('!', times); }
}

class Program
{
    static void Main()
    {
        float x = 1.5f;
        Console.WriteLine(x.Squared());
        Console.WriteLine("cone".Shout(2));
        Console.WriteLine(Extensions.Squared(3));
    }
}
