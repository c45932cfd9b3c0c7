using System;

class Program
{
    static void Main()
    {
        string s = "a1 B";
        foreach (char ch in s)
            Console.WriteLine(ch + " " + char.IsLetter(ch) + " " + char.IsDigit(ch) + " " + char.IsUpper(ch));
        Console.WriteLine(char.ToUpper('q'));
        Console.WriteLine(s[0] == 'a');
        Console.WriteLine(new string('-', 5));
        Console.WriteLine(string.Join("|", "x,y".ToCharArray()));
        Console.WriteLine(char.IsWhiteSpace(s[2]));
    }
}
