# match: value patterns (dotted names: enum members, class constants) against captures.
from enum import Enum


class Shape(Enum):
    CUBE = "cube"
    SPHERE = "sphere"
    CONE = "cone"


class Limits:
    SMALL = 1
    LARGE = 10


def name_of(shape):
    match shape:
        case Shape.CUBE:
            return "box"
        case Shape.SPHERE | Shape.CONE:
            return "curved " + shape.value
    return "?"


def limit(n):
    match n:
        case Limits.SMALL:
            return "small"
        case Limits.LARGE:
            return "large"
        case other:
            return f"other {other}"


for s in Shape:
    print(s.name, name_of(s))
for n in [1, 10, 5]:
    print(limit(n))
