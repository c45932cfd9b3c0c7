using System;

class Program
{
    static void Main()
    {
        int max = int.MaxValue;
        int wrapped = max + 1;
        Console.WriteLine(wrapped);
        Console.WriteLine(unchecked(max * 2));
        try
        {
            int boom = checked(max + 1);
            Console.WriteLine(boom);
        }
        catch (OverflowException)
        {
            Console.WriteLine("overflow");
        }
        try
        {
            checked
            {
                int a = 2000000000;
                int b = a + a;
                Console.WriteLine(b);
            }
        }
        catch (OverflowException e)
        {
            Console.WriteLine("overflow in block");
        }
        long wide = (long)max + 1;
        Console.WriteLine(wide);
        byte small = 250;
        small += 10;
        Console.WriteLine(small);
        int min = int.MinValue;
        Console.WriteLine(min - 1 == max);
    }
}
