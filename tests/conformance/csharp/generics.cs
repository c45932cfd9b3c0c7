using System;
using System.Collections.Generic;

class Box<T>
{
    public T Value;
    public Box(T value) { Value = value; }
    public override string ToString() { return "Box(" + Value + ")"; }
}

class Pair<TA, TB>
{
    public TA First;
    public TB Second;
}

class Program
{
    static T Largest<T>(T a, T b) where T : IComparable<T>
    {
        return a.CompareTo(b) >= 0 ? a : b;
    }

    static List<T> Twice<T>(T item) { return new List<T> { item, item }; }

    static void Main()
    {
        var b = new Box<int>(3);
        Console.WriteLine(b.Value + 1);
        Console.WriteLine(new Box<string>("s"));
        Console.WriteLine(Largest(3, 9));
        Console.WriteLine(Largest("pear", "apple"));
        Console.WriteLine(Largest<float>(1.5f, -2));
        var p = new Pair<string, float> { First = "w", Second = 0.5f };
        Console.WriteLine(p.First + p.Second);
        Console.WriteLine(Twice("x").Count);
        Console.WriteLine(default(int) + " " + (default(string) == null));
    }
}
