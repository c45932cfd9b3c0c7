using System;

struct Point
{
    public int X;
    public int Y;
}

class Program
{
    static void Main()
    {
        Point a = new Point();
        a.X = 1;
        a.Y = 2;
        Point b = a;
        b.X = 10;
        Console.WriteLine(a.X + " " + a.Y);
        Console.WriteLine(b.X + " " + b.Y);
        var c = b;
        c.Y = 20;
        Console.WriteLine(b.Y);
        Console.WriteLine(c.Y);
    }
}
