using System;

class Base
{
    protected int size = 1;
    public Base() { Console.WriteLine("Base() size " + size); size = 2; }
    public Base(int s) : this() { Console.WriteLine("Base(int) " + s); size += s; }
}

class Derived : Base
{
    int extra = 10;
    public Derived() : base(5) { Console.WriteLine("Derived() " + size + " " + extra); }
    public Derived(int e) : this() { extra = e; Console.WriteLine("Derived(int) " + extra); }
}

class Program
{
    static void Main()
    {
        new Derived();
        new Derived(3);
    }
}
