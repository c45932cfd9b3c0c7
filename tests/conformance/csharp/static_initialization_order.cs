using System;

class Counter
{
    public static int Created;
    public int Id;
    public static readonly Counter First = new Counter();
    public Counter() { Created++; Id = Created; }
}

class Program
{
    static int Log(string what, int v) { Console.WriteLine("init " + what); return v; }

    class Fields
    {
        public int A = Log("A", 1);
        public int B = Log("B", 2);
        public Fields() { Console.WriteLine("ctor " + (A + B)); }
    }

    static void Main()
    {
        Console.WriteLine(Counter.First.Id);
        var c = new Counter();
        Console.WriteLine(c.Id + " " + Counter.Created);
        new Fields();
    }
}
