using System;
using System.Collections.Generic;

class Spec
{
    public string Kind = "cube";
    public float Size = 1;
    public List<float> Position = new List<float>();
    public Spec Child;
}

class Program
{
    static void Main()
    {
        var a = new Spec { Size = 2.5f };
        Console.WriteLine(a.Kind + " " + a.Size);
        var b = new Spec { Kind = "cone", Position = { 1, 2, 3 } };
        Console.WriteLine(b.Position.Count + " " + b.Position[2]);
        var c = new Spec { Child = new Spec { Kind = "leaf" } };
        Console.WriteLine(c.Child.Kind);
        var specs = new List<Spec> { new Spec { Size = 3 }, new Spec() };
        Console.WriteLine(specs[0].Size + specs[1].Size);
        var arr = new[] { new Spec { Kind = "x" } };
        Console.WriteLine(arr[0].Kind);
        var anon = new { Name = "ball", Radius = 0.5f };
        Console.WriteLine(anon.Name + " " + anon.Radius);
    }
}
