using System;

abstract class Shape
{
    public string Name;
    protected Shape(string name) { Name = name; }
    public abstract double Area();
    public virtual string Describe() { return Name + " of area " + Area(); }
}

class Square : Shape
{
    double side;
    public Square(double side) : base("square") { this.side = side; }
    public override double Area() { return side * side; }
}

class Circle : Shape
{
    double radius;
    public Circle(double radius) : base("circle") { this.radius = radius; }
    public override double Area() { return 3 * radius * radius; }
    public override string Describe() { return "round " + base.Describe(); }
}

class Program
{
    static void Main()
    {
        Shape[] shapes = { new Square(2), new Circle(1.5), new Square(0.5) };
        foreach (Shape s in shapes)
            Console.WriteLine(s.Describe());
        double total = 0;
        foreach (var s in shapes) total += s.Area();
        Console.WriteLine(total);
    }
}
