# Classes: inheritance, super(), overriding, class attributes, properties, isinstance.
class Shape:
    count = 0

    def __init__(self, name, size=1.0):
        self.name = name
        self.size = size
        Shape.count += 1

    def area(self):
        return 0.0

    def describe(self):
        return f"{self.name}: {self.area():.2f}"

    @property
    def doubled(self):
        return self.size * 2


class Square(Shape):
    sides = 4

    def __init__(self, size):
        super().__init__("square", size)

    def area(self):
        return self.size ** 2


class Circle(Shape):
    def area(self):
        return 3.14159 * self.size ** 2

    def describe(self):
        return "round " + super().describe()


shapes = [Square(2), Circle("circle", 0.5), Shape("blob")]
for s in shapes:
    print(s.describe(), s.doubled)
print(Shape.count, Square.sides, shapes[0].sides, isinstance(shapes[0], Shape))
print(isinstance(shapes[1], Square), issubclass(Square, Shape), type(shapes[0]).__name__)
