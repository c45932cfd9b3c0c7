using System;

class Program
{
    static void Main()
    {
        float f = 0;
        double d = 0;
        for (int i = 0; i < 10; i++)
        {
            f += 0.1f;
            d += 0.1;
        }
        Console.WriteLine(f);
        Console.WriteLine(d);
        Console.WriteLine(f == 1f);
        Console.WriteLine(d == 1.0);
        Console.WriteLine((double)f);
        float h = 3;
        float half = h / 2;
        Console.WriteLine(half);
        float step = 0.7f;
        float angle = step * 3;
        Console.WriteLine(angle.ToString("R"));
        Console.WriteLine((double)angle);
    }
}
