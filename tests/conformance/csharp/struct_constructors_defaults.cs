using System;

struct Box
{
    public float Width;
    public float Height;
    public string Name;

    public Box(float width, float height)
    {
        Width = width;
        Height = height;
        Name = "box";
    }

    public float Area { get { return Width * Height; } }
}

class Program
{
    static void Main()
    {
        Box a = new Box();
        Console.WriteLine(a.Width + " " + (a.Name == null));
        Box b = new Box(2, 3.5f);
        Console.WriteLine(b.Area);
        Box c = default(Box);
        Console.WriteLine(c.Height);
        Box[] many = new Box[2];
        Console.WriteLine(many[1].Width);
        Console.WriteLine(b.Equals(new Box(2, 3.5f)));
        Console.WriteLine(a.Equals(b));
    }
}
