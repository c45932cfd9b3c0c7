# Dataclasses: generated __init__, __repr__ and __eq__, defaults, default_factory.
from dataclasses import dataclass, field


@dataclass
class Shape:
    kind: str
    size: float = 1.0
    position: tuple = (0.0, 0.0, 0.0)
    tags: list = field(default_factory=list)


a = Shape("cube")
b = Shape("cube", 1.0)
c = Shape("sphere", size=0.5, position=(1, 2, 3))
print(a)
print(c)
print(a == b, a == c, a is b)
a.tags.append("red")
print(a.tags, b.tags)
c.size *= 2
print(c.size, c.kind.upper())
