using System;

static class Settings
{
    public const float Unit = 0.5f;
    public const int Count = 3;
    public const string Prefix = "obj_";
    public static readonly float[] Heights = { 1, 2.5f, 4 };
    public static readonly float Total;
    public static int Made;

    static Settings()
    {
        foreach (var h in Heights) Total += h;
    }

    public static string NextName() { Made++; return Prefix + Made; }
}

class Program
{
    const double Half = 1 / 2;
    static readonly int Doubled = Settings.Count * 2;

    static void Main()
    {
        Console.WriteLine(Settings.Unit * Settings.Count);
        Console.WriteLine(Settings.Total);
        Console.WriteLine(Settings.NextName() + " " + Settings.NextName());
        Console.WriteLine(Settings.Made);
        Console.WriteLine(Half);
        Console.WriteLine(Doubled);
        Settings.Heights[0] = 9;
        Console.WriteLine(Settings.Heights[0]);
    }
}
