# Dataclasses with methods, __post_init__, class constants, and frozen/order options.
from dataclasses import dataclass, field


@dataclass
class Box:
    width: float
    height: float
    depth: float = 1.0
    volume: float = field(init=False)

    def __post_init__(self):
        self.volume = self.width * self.height * self.depth

    def scaled(self, k):
        return Box(self.width * k, self.height * k, self.depth * k)


b = Box(1, 2, 3)
print(b.volume, b.scaled(2).volume)
print(b)


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int = 0


print(Version(1, 2) < Version(1, 3), Version(2) > Version(1, 9), Version(1) == Version(1, 0))
print(sorted([Version(2, 1), Version(1, 5), Version(1, 0)]))
