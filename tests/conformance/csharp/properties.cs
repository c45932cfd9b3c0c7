using System;

class Thing
{
    float height = 2;
    public float Height
    {
        get { return height; }
        set { height = value < 0 ? 0 : value; }
    }
    public float Half { get { return height / 2; } }
    public string Name { get; set; } = "thing";
    public int Count { get; private set; }
    public float Doubled => Height * 2;
    public void Touch() { Count++; }
}

class Program
{
    static void Main()
    {
        var t = new Thing();
        Console.WriteLine(t.Height + " " + t.Half + " " + t.Name);
        t.Height = -3;
        Console.WriteLine(t.Height);
        t.Height = 5;
        Console.WriteLine(t.Half);
        t.Height += 1;
        Console.WriteLine(t.Doubled);
        t.Touch();
        t.Touch();
        Console.WriteLine(t.Count);
        t.Name += "!";
        Console.WriteLine(t.Name);
    }
}
