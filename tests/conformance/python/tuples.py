# Tuples: packing and unpacking, swapping, nested unpacking in loops, methods, comparison.
t = 1, 2, 3
a, b, c = t
a, b = b, a
print(t, a, b, c, t.count(2), t.index(3), len(t), t + (4,), t * 2)
print((1, 2) < (1, 3), (2,) > (1, 9), max([(1, "b"), (1, "a")]))
pairs = [("x", 1), ("y", 2)]
for name, value in pairs:
    print(name, value)
for i, (name, value) in enumerate(pairs):
    print(i, name, value)
single = (5,)
print(single, tuple([1, 2]), tuple("ab"), () == tuple())
(x, y), z = (1, 2), 3
print(x, y, z)
print(sorted([(2, "b"), (1, "z"), (2, "a")]))
