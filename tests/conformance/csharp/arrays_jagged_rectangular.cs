using System;

class Program
{
    static void Main()
    {
        int[] a = { 3, 1, 2 };
        Console.WriteLine(a.Length + " " + a[2]);
        float[] f = new float[3];
        f[1] = 2.5f;
        Console.WriteLine(f[0] + " " + f[1]);
        int[][] jagged = new int[3][];
        jagged[0] = new int[] { 1 };
        jagged[1] = new int[] { 2, 3 };
        jagged[2] = new int[4];
        Console.WriteLine(jagged[1][1] + " " + jagged[2].Length + " " + jagged.Length);
        int[,] grid = new int[2, 3];
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 3; c++)
                grid[r, c] = r * 10 + c;
        Console.WriteLine(grid[1, 2] + " " + grid.Length + " " + grid.GetLength(0) + " " + grid.GetLength(1));
        float[,] m = { { 1, 2 }, { 3, 4 } };
        Console.WriteLine(m[1, 0] + m[0, 1]);
        int sum = 0;
        foreach (int v in grid) sum += v;
        Console.WriteLine(sum);
        string[] names = new string[2];
        Console.WriteLine(names[0] == null);
        Array.Sort(a);
        Console.WriteLine(string.Join(",", a));
        Console.WriteLine(Array.IndexOf(a, 3));
        var copy = (int[])a.Clone();
        copy[0] = 99;
        Console.WriteLine(a[0]);
    }
}
