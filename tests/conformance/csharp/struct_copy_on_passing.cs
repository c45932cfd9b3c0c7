using System;

struct Size
{
    public float W;
    public float H;
}

class Program
{
    static void Grow(Size s)
    {
        s.W = 100;
        Console.WriteLine("inside " + s.W);
    }

    static Size Doubled(Size s)
    {
        s.W *= 2;
        s.H *= 2;
        return s;
    }

    static void Main()
    {
        Size s = new Size();
        s.W = 1.5f;
        s.H = 2;
        Grow(s);
        Console.WriteLine(s.W);
        Size d = Doubled(s);
        Console.WriteLine(s.W + " " + s.H);
        Console.WriteLine(d.W + " " + d.H);
    }
}
