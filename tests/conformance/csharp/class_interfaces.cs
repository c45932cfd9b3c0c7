using System;
using System.Collections.Generic;

interface IPlaced
{
    float X { get; }
    string Label();
}

class Marker : IPlaced
{
    public float X { get; private set; }
    public Marker(float x) { X = x; }
    public string Label() { return "marker at " + X; }
}

class Flag : IPlaced
{
    public float X { get { return 7; } }
    public string Label() { return "flag"; }
}

class Program
{
    static void Main()
    {
        var items = new List<IPlaced> { new Marker(1.5f), new Flag(), new Marker(-2) };
        float sum = 0;
        foreach (IPlaced p in items)
        {
            Console.WriteLine(p.Label());
            sum += p.X;
        }
        Console.WriteLine(sum);
    }
}
