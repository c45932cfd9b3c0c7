# Generators keep their state between steps: infinite generators cut by break or islice,
# next() with a default, two generators advanced in turn.
import itertools


def fibonacci():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


for i, f in enumerate(fibonacci()):
    if i >= 10:
        break
    print(f, end=" ")
print()
print(list(itertools.islice(fibonacci(), 5, 12)))

first, second = fibonacci(), fibonacci()
print(next(first), next(first), next(second), next(first))


def limited():
    yield "a"
    yield "b"


it = limited()
print(next(it), next(it), next(it, "exhausted"))


def positions(n, spacing):
    for i in range(n):
        yield (i * spacing, 0.0, -i * spacing / 2)


for x, y, z in positions(3, 1.5):
    print(x, y, z)
print(dict(zip("abc", positions(3, 1))))
