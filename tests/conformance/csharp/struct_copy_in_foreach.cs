using System;
using System.Collections.Generic;

struct Cell
{
    public int Value;
    public void Bump() { Value += 1; }
}

class Program
{
    static void Main()
    {
        Cell[] cells = new Cell[3];
        foreach (Cell c in cells)
        {
            Cell copy = c;
            copy.Value = 7;
        }
        Console.WriteLine(cells[0].Value);
        for (int i = 0; i < cells.Length; i++)
        {
            cells[i].Value = i * 10;
        }
        Console.WriteLine(cells[2].Value);
        cells[1].Bump();
        Console.WriteLine(cells[1].Value);
        var list = new List<Cell> { new Cell(), new Cell() };
        Cell first = list[0];
        first.Value = 5;
        Console.WriteLine(list[0].Value);
        list[0] = first;
        Console.WriteLine(list[0].Value);
        int total = 0;
        foreach (var c in cells) total += c.Value;
        Console.WriteLine(total);
    }
}
