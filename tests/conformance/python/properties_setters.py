# Properties with setters and validation; attributes added after construction.
class Cube:
    def __init__(self, size):
        self._size = size
        self.history = []

    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self.history.append(value)
        self._size = max(0.1, value)

    @property
    def volume(self):
        return self._size ** 3


c = Cube(2)
print(c.size, c.volume)
c.size = 3
c.size = -1
print(c.size, c.volume, c.history)
c.color = "red"
print(c.color, hasattr(c, "color"), hasattr(c, "weight"), getattr(c, "weight", "none"))
setattr(c, "weight", 5)
print(c.weight, vars(c) == c.__dict__)
