using System;

struct V2
{
    public float X, Y;
    public V2(float x, float y) { X = x; Y = y; }
    public static V2 operator +(V2 a, V2 b) { return new V2(a.X + b.X, a.Y + b.Y); }
    public static V2 operator *(V2 a, float k) { return new V2(a.X * k, a.Y * k); }
    public static V2 operator *(float k, V2 a) { return a * k; }
    public static V2 operator -(V2 a) { return new V2(-a.X, -a.Y); }
    public static bool operator ==(V2 a, V2 b) { return a.X == b.X && a.Y == b.Y; }
    public static bool operator !=(V2 a, V2 b) { return !(a == b); }
    public override bool Equals(object o) { return o is V2 && this == (V2)o; }
    public override int GetHashCode() { return 0; }
    public override string ToString() { return "(" + X + ", " + Y + ")"; }
    public static V2 One { get { return new V2(1, 1); } }
}

class Program
{
    static void Main()
    {
        var a = new V2(1, 2);
        var b = new V2(0.5f, -1);
        Console.WriteLine(a + b);
        Console.WriteLine(a * 3);
        Console.WriteLine(2 * b);
        Console.WriteLine(-a);
        Console.WriteLine(V2.One * 2.5f);
        Console.WriteLine(a == new V2(1, 2));
        var c = a;
        c += b;
        Console.WriteLine(c + " " + a);
        Console.WriteLine($"{a}");
    }
}
