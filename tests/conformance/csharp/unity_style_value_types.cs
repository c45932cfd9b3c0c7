using System;

struct Vector3
{
    public float x, y, z;
    public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
    public static Vector3 one { get { return new Vector3(1, 1, 1); } }
    public static Vector3 operator *(Vector3 v, float d) { return new Vector3(v.x * d, v.y * d, v.z * d); }
    public override string ToString() { return "(" + x.ToString("F2") + ", " + y.ToString("F2") + ", " + z.ToString("F2") + ")"; }
}

class Transform
{
    Vector3 scale = Vector3.one;
    public Vector3 localScale { get { return scale; } set { scale = value; } }
    public Vector3 position { get; set; }
}

class Program
{
    static void Main()
    {
        var t = new Transform();
        float h = 3;
        Vector3 s = t.localScale;
        s.y = h / 2f;
        t.localScale = s;
        Console.WriteLine(t.localScale);
        Vector3 p = t.position;
        p.x = 2;
        Console.WriteLine(t.position);
        t.position = p;
        Console.WriteLine(t.position);
        float diameter = 0.4f;
        t.localScale = Vector3.one * diameter;
        Console.WriteLine(t.localScale);
    }
}
