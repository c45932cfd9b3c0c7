# match: class patterns with keywords, positional sub-patterns (__match_args__ of a dataclass),
# and the built-in classes (int(), str(), float(x)).
from dataclasses import dataclass


@dataclass
class Point:
    x: float
    y: float


@dataclass
class Box:
    corner: Point
    size: float


def where(obj):
    match obj:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x, 0):
            return f"on x axis at {x}"
        case Box(Point(x, y), size) if size > 1:
            return f"big box at {x},{y}"
        case Box():
            return "small box"
        case int() | float() as number:
            return f"number {number}"
        case str(s):
            return f"string {s!r}"
        case _:
            return "something else"


for obj in [Point(0, 0), Point(0, 5), Point(3, 0), Point(1, 1), Box(Point(1, 2), 3),
            Box(Point(0, 0), 1), 7, 2.5, "hi", [1]]:
    print(where(obj))
