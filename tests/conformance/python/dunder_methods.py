# Operator and protocol methods on user classes: arithmetic, comparison, str/repr, len,
# iteration, indexing, membership, truth.
class V:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return V(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return V(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return V(self.x * k, self.y * k)

    def __rmul__(self, k):
        return self * k

    def __neg__(self):
        return V(-self.x, -self.y)

    def __eq__(self, other):
        return isinstance(other, V) and (self.x, self.y) == (other.x, other.y)

    def __lt__(self, other):
        return (self.x, self.y) < (other.x, other.y)

    def __repr__(self):
        return f"V({self.x}, {self.y})"

    def __str__(self):
        return f"<{self.x}, {self.y}>"

    def __len__(self):
        return 2

    def __iter__(self):
        yield self.x
        yield self.y

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __contains__(self, value):
        return value in (self.x, self.y)

    def __bool__(self):
        return bool(self.x or self.y)


a, b = V(1, 2), V(3, 4)
print(a + b, a - b, a * 3, 2 * a, -a)
print(repr(a), [a, b], str(b), f"{a}", f"{a!r}")
print(a == V(1, 2), a != b, a < b, sorted([b, a]))
print(len(a), list(a), a[1], 2 in a, 5 in a, bool(V(0, 0)), bool(a))
x, y = b
print(x, y, sum(b), max(a))
total = V(0, 0)
for v in [a, b]:
    total += v
print(total)
