using System;
using System.Collections.Generic;
using System.Linq;

class Program
{
    delegate float Op(float a, float b);

    static float Mul(float a, float b) { return a * b; }
    static int Twice(int x) { return 2 * x; }
    static void Apply(List<int> xs, Func<int, int> f)
    {
        for (int i = 0; i < xs.Count; i++) xs[i] = f(xs[i]);
    }

    static void Main()
    {
        Op op = Mul;
        Console.WriteLine(op(1.5f, 4));
        op = (a, b) => a - b;
        Console.WriteLine(op(1.5f, 4));
        var xs = new List<int> { 1, 2, 3 };
        Apply(xs, Twice);
        Console.WriteLine(string.Join(",", xs));
        Console.WriteLine(string.Join(",", xs.Select(Twice)));
        Func<int> make = () => 7;
        Console.WriteLine(make.Invoke());
        Action<string> say = s => Console.WriteLine("said " + s);
        say("hi");
        Predicate<int> big = n => n > 3;
        Console.WriteLine(xs.FindAll(big).Count);
    }
}
