using System;
using System.Text;

class Program
{
    static void Main()
    {
        var sb = new StringBuilder();
        sb.Append("cube");
        sb.Append(' ');
        sb.Append(1.5f);
        sb.AppendLine(";");
        sb.Append(3).Append(true);
        Console.Write(sb.ToString());
        Console.WriteLine();
        Console.WriteLine(sb.Length);
        var b2 = new StringBuilder("ab");
        b2.Insert(1, "X");
        Console.WriteLine(b2.ToString());
    }
}
