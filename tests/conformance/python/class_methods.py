# classmethod and staticmethod: alternative constructors, class state, calls on instances.
class Vec:
    made = 0

    def __init__(self, x, y):
        self.x, self.y = x, y
        Vec.made += 1

    @classmethod
    def zero(cls):
        return cls(0, 0)

    @classmethod
    def from_list(cls, values):
        return cls(*values)

    @staticmethod
    def dot(a, b):
        return a.x * b.x + a.y * b.y

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


class Vec2(Vec):
    pass


print(Vec.zero(), Vec.from_list([1, 2]), Vec2.zero().__class__.__name__)
print(Vec.dot(Vec(1, 2), Vec(3, 4)), Vec(1, 1).dot(Vec(2, 2), Vec(1, 1)), Vec.made)
