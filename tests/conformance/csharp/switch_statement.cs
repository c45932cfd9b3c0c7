using System;

enum Kind { Cube, Sphere, Cone, Torus }

class Program
{
    static string Describe(int n)
    {
        switch (n)
        {
            case 0:
                return "zero";
            case 1:
            case 2:
                return "small";
            case 3:
                {
                    string s = "three";
                    return s.ToUpper();
                }
            default:
                return "many";
        }
    }

    static void Main()
    {
        for (int i = 0; i < 5; i++) Console.WriteLine(Describe(i));
        foreach (Kind k in new[] { Kind.Cone, Kind.Cube, Kind.Torus })
        {
            float height;
            switch (k)
            {
                case Kind.Cube: height = 1; break;
                case Kind.Cone: height = 2.5f; break;
                default: height = -1; break;
            }
            Console.WriteLine(k + " " + height);
        }
        string word = "b";
        switch (word)
        {
            case "a": Console.WriteLine("is a"); break;
            case "b": Console.WriteLine("is b"); goto case "a";
        }
    }
}
