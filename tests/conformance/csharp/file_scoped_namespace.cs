// C# 10 (a file-scoped namespace): mcs compiles C# up to 7, so this program's output is
// worked out from the C# specification (the C# 10 file-scoped namespace proposal: the
// declarations that follow belong to the namespace) and kept in
// file_scoped_namespace.expected.txt.
namespace Scene.Builder;

using System;

class Shape
{
    public string Kind = "cube";
}

class Program
{
    static void Main()
    {
        var s = new Shape();
        Console.WriteLine(s.Kind);
        Console.WriteLine(typeof(Shape).Namespace);
    }
}
