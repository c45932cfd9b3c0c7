using System;

class ShapeException : Exception
{
    public ShapeException(string message) : base(message) { }
}

class Program
{
    static int Check(int n)
    {
        if (n < 0) throw new ArgumentException("negative");
        if (n == 0) throw new ShapeException("zero");
        return n * 2;
    }

    static void Main()
    {
        foreach (int n in new[] { 3, -1, 0 })
        {
            try
            {
                Console.WriteLine(Check(n));
            }
            catch (ArgumentException e)
            {
                Console.WriteLine("argument: " + e.Message);
            }
            catch (Exception e)
            {
                Console.WriteLine("other: " + e.Message);
            }
            finally
            {
                Console.WriteLine("done " + n);
            }
        }
        try
        {
            int[] a = new int[2];
            a[5] = 1;
        }
        catch (IndexOutOfRangeException)
        {
            Console.WriteLine("out of range");
        }
        try
        {
            object o = "s";
            int i = (int)o;
        }
        catch (InvalidCastException)
        {
            Console.WriteLine("bad cast");
        }
    }
}
