using System;

enum Shape { Cube, Sphere, Cylinder = 5, Cone }

[Flags]
enum Parts { None = 0, Top = 1, Bottom = 2, Side = 4 }

class Program
{
    static void Main()
    {
        Shape s = Shape.Cone;
        Console.WriteLine(s);
        Console.WriteLine((int)s);
        Console.WriteLine((Shape)1);
        Console.WriteLine((Shape)5 == Shape.Cylinder);
        Console.WriteLine(s.ToString().ToLower());
        foreach (Shape v in Enum.GetValues(typeof(Shape))) Console.Write(v + ";");
        Console.WriteLine();
        Shape parsed = (Shape)Enum.Parse(typeof(Shape), "Sphere");
        Console.WriteLine((int)parsed);
        Console.WriteLine(Shape.Cylinder + 1);
        Console.WriteLine(s > Shape.Cube);
        Parts p = Parts.Top | Parts.Side;
        Console.WriteLine((int)p);
        Console.WriteLine((p & Parts.Side) != 0);
    }
}
