using System;

class Animal { public string Name = "animal"; }
class Dog : Animal { public int Legs = 4; }

class Program
{
    static void Main()
    {
        object o = 17;
        if (o is int n && n > 10) Console.WriteLine("int " + (n + 1));
        object s = "text";
        if (s is string str) Console.WriteLine(str.Length);
        Console.WriteLine(s is int);
        Animal a = new Dog();
        if (a is Dog d) Console.WriteLine(d.Legs);
        Console.WriteLine(a is Animal);
        Animal b = new Animal();
        Console.WriteLine(b is Dog);
        var dog = a as Dog;
        Console.WriteLine(dog != null);
        var none = b as Dog;
        Console.WriteLine(none == null);
    }
}
