using System;

class Program
{
    static void Main()
    {
        int i = 0;
        while (true)
        {
            i++;
            if (i % 2 == 0) continue;
            if (i > 7) break;
            Console.Write(i + " ");
        }
        Console.WriteLine();
        int n = 10;
        do { n -= 3; } while (n > 0);
        Console.WriteLine(n);
        for (int a = 0, b = 10; a < b; a += 3, b -= 2) Console.Write(a + ":" + b + " ");
        Console.WriteLine();
        int found = -1;
        for (int r = 0; r < 4 && found < 0; r++)
        {
            for (int c = 0; c < 4; c++)
            {
                if (r * c == 6) { found = r * 10 + c; break; }
            }
        }
        Console.WriteLine(found);
        for (int k = 3; k > 0; k--) Console.Write(k);
        Console.WriteLine();
    }
}
