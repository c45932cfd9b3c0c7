# Enum: members, .name and .value, iteration order, lookup by value and by name, auto().
from enum import Enum, IntEnum, auto


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


print(Color.RED, Color.RED.name, Color.RED.value)
print(repr(Color.GREEN))
print([c.name for c in Color])
print(Color(2), Color["BLUE"], Color.RED == Color.RED, Color.RED == 1)
print(Color.RED is Color(1), len(Color))


class Kind(Enum):
    CUBE = auto()
    SPHERE = auto()


print(Kind.CUBE.value, Kind.SPHERE.value)


class Level(IntEnum):
    LOW = 1
    HIGH = 5


print(Level.HIGH > Level.LOW, Level.LOW + 1, sorted([Level.HIGH, Level.LOW]))
