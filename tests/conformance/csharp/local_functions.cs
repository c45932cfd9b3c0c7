// C# 7 local functions: Mono's mcs 6.8 does not parse them, so this program's output is worked
// out from the C# specification (C# 7.0 local functions: they capture the enclosing locals by
// reference, may recurse, and may be called before the statement that declares them) and
// kept in local_functions.expected.txt.
using System;

class Program
{
    static void Main()
    {
        int calls = 0;
        float scale = 2;

        float Scaled(float v)
        {
            calls++;
            return v * scale;
        }

        int Fact(int n) => n <= 1 ? 1 : n * Fact(n - 1);

        Console.WriteLine(Scaled(1.5f));
        scale = 10;
        Console.WriteLine(Scaled(1.5f));
        Console.WriteLine(calls);
        Console.WriteLine(Fact(6));
        Console.WriteLine(Later(3));

        int Later(int x) { return x + calls; }
    }
}
