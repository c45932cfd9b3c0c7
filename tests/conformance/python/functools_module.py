# functools: partial with positional and keyword arguments, reduce, and a cached function.
import functools
from functools import partial, reduce


def place(kind, x, y, z=0.0, scale=1.0):
    return f"{kind} at ({x}, {y}, {z}) x{scale}"


cube_at = partial(place, "cube")
print(cube_at(1, 2))
print(cube_at(1, 2, scale=3))
big = partial(place, scale=10)
print(big("sphere", 0, 0))
print(big("sphere", 0, 0, scale=1))
print(reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 100))


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30))
