// C# 7 constant patterns in `is` (`o is 17`, `x is null`): Mono's mcs 6.8 rejects them ("pattern
// matching is not part of the C# 7.2 language specification"), so this program's output is
// worked out from the C# specification (C# 7.0 constant patterns: `is null` tests for null, a
// constant pattern compares with object.Equals after the type test) and kept in
// is_constant_patterns.expected.txt.
using System;

class Program
{
    static void Main()
    {
        object nothing = null;
        Console.WriteLine(nothing is null);
        object o = 17;
        Console.WriteLine(o is 17);
        Console.WriteLine(o is 18);
        object s = "cone";
        Console.WriteLine(s is "cone");
        Console.WriteLine(o is null);
    }
}
