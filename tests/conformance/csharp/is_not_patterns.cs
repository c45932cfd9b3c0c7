// C# 9 (`is not`, `or`/`and` and relational patterns): mcs compiles C# up to 7, so this
// program's output is worked out from the C# specification (the C# 9 pattern-matching
// changes) and kept in is_not_patterns.expected.txt.
using System;

class Program
{
    static void Main()
    {
        object o = "text";
        if (o is not null) Console.WriteLine("not null");
        if (o is not int) Console.WriteLine("not int");
        int n = 7;
        Console.WriteLine(n is > 5 and < 10);
        Console.WriteLine(n is 1 or 2 or 3);
        Console.WriteLine(n is not (> 0 and < 5));
        object nothing = null;
        Console.WriteLine(nothing is not null);
        char c = 'q';
        Console.WriteLine(c is >= 'a' and <= 'z');
    }
}
