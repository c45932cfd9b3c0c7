using System;

struct Counter
{
    public int Count;
    public void Increment() { Count++; }
    public Counter Next() { Counter c = this; c.Count++; return c; }
}

class Program
{
    static Counter field;

    static void Main()
    {
        Counter c = new Counter();
        c.Increment();
        c.Increment();
        Console.WriteLine(c.Count);
        Counter n = c.Next();
        Console.WriteLine(c.Count + " " + n.Count);
        field.Increment();
        Console.WriteLine(field.Count);
        Counter copy = field;
        copy.Increment();
        Console.WriteLine(field.Count + " " + copy.Count);
    }
}
