using System;
using System.Collections.Generic;

class Part
{
    public string Name;
    public Part Child;
    public List<int> Values;
}

class Program
{
    static void Main()
    {
        var p = new Part { Name = "root" };
        Console.WriteLine(p.Child?.Name ?? "no child");
        p.Child = new Part { Name = "leaf" };
        Console.WriteLine(p.Child?.Name);
        Console.WriteLine(p.Values?.Count ?? 0);
        p.Values = new List<int> { 4 };
        Console.WriteLine(p.Values?[0]);
        Part none = null;
        Console.WriteLine(none?.Child?.Name == null);
    }
}
