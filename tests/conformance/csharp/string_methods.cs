using System;

class Program
{
    static void Main()
    {
        string s = "  Hello, World  ";
        string t = s.Trim();
        Console.WriteLine(t);
        Console.WriteLine(t.Length);
        Console.WriteLine(t.ToUpper() + t.ToLower());
        Console.WriteLine(t.Substring(7));
        Console.WriteLine(t.Substring(0, 5));
        Console.WriteLine(t.IndexOf("World"));
        Console.WriteLine(t.IndexOf('z'));
        Console.WriteLine(t.Replace("l", "L"));
        Console.WriteLine(t.Contains("lo, W"));
        string[] parts = "a,b,,c".Split(',');
        Console.WriteLine(parts.Length + " " + parts[3]);
        Console.WriteLine(t.StartsWith("Hell") + " " + t.EndsWith("x"));
        Console.WriteLine(t[4]);
        Console.WriteLine("abc" + 1 + 2);
        Console.WriteLine(1 + 2 + "abc");
        Console.WriteLine("v" + 1.5f + true);
        Console.WriteLine(string.IsNullOrEmpty("") + " " + string.IsNullOrEmpty("a"));
        Console.WriteLine(char.ToUpper(t[0]) + t.Substring(1).ToLower());
        Console.WriteLine("Cone".CompareTo("Cube") < 0);
    }
}
