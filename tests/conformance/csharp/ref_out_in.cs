using System;

struct Pair
{
    public int A, B;
}

class Program
{
    static void Swap(ref int a, ref int b) { int t = a; a = b; b = t; }
    static void Split(int n, out int half, out int rest) { half = n / 2; rest = n - half; }
    static bool TryDouble(string s, out int result)
    {
        int v;
        if (int.TryParse(s, out v)) { result = v * 2; return true; }
        result = -1;
        return false;
    }
    static void Bump(ref Pair p) { p.A += 1; }
    static int Sum(in Pair p) { return p.A + p.B; }

    static void Main()
    {
        int x = 1, y = 2;
        Swap(ref x, ref y);
        Console.WriteLine(x + " " + y);
        Split(7, out int h, out int r);
        Console.WriteLine(h + " " + r);
        int d;
        Console.WriteLine(TryDouble("21", out d) + " " + d);
        Console.WriteLine(TryDouble("abc", out d) + " " + d);
        var p = new Pair { A = 1, B = 5 };
        Bump(ref p);
        Bump(ref p);
        Console.WriteLine(p.A);
        Console.WriteLine(Sum(in p));
    }
}
