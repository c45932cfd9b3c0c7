using System;

struct Vec
{
    public float x, y, z;
    public Vec(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
}

class Holder
{
    Vec scale = new Vec(1, 1, 1);
    public Vec Scale { get { return scale; } set { scale = value; } }
    public Vec Position { get; set; }
}

class Program
{
    static void Main()
    {
        var h = new Holder();
        Vec s = h.Scale;
        s.y = 3 / 2f;
        Console.WriteLine(h.Scale.y);
        h.Scale = s;
        Console.WriteLine(h.Scale.y);
        Vec p = h.Position;
        p.x = 4;
        Console.WriteLine(h.Position.x);
        h.Position = p;
        Console.WriteLine(h.Position.x);
        Vec again = h.Position;
        again.x = -1;
        Console.WriteLine(h.Position.x + " " + again.x);
    }
}
