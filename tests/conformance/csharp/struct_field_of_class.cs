using System;

struct Color
{
    public float r, g, b;
}

class Material
{
    public Color color;
    public Color[] palette = new Color[2];
}

class Program
{
    static void Main()
    {
        var m = new Material();
        m.color.r = 0.5f;
        Console.WriteLine(m.color.r);
        Color c = m.color;
        c.g = 1f;
        Console.WriteLine(m.color.g);
        m.palette[1].b = 0.25f;
        Console.WriteLine(m.palette[1].b);
        var other = m;
        other.color.b = 0.75f;
        Console.WriteLine(m.color.b);
    }
}
