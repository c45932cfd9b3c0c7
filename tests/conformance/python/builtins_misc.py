# Built-ins: min/max of several arguments, sum with a start, len, any/all, isinstance with a
# tuple, callable, reversed, enumerate, sorted of mixed numbers, abs/round/divmod on floats.
print(max(3, 7, 5), min(2.5, 1, 4), max("a", "b"), sum([1, 2, 3], 10), sum([0.5, 0.25]))
print(len([1, 2]), len("abc"), len({"a": 1}), len(range(3, 10, 2)), len((1, 2, 3)))
print(any([]), all([]), any([0, "", None]), all([1, "x", [0]]))
print(isinstance(3, (int, float)), isinstance("s", (int, float)), isinstance(2.0, int))
print(isinstance(True, int), isinstance([], list), isinstance({}, dict), isinstance((), tuple))
print(callable(len), callable(3), callable(lambda: 0))
print(list(reversed([1, 2, 3])), list(reversed("ab")), sorted([3, 1.5, 2, -1]))
print(divmod(7.5, 2), abs(-0.0), round(-2.5), max([1, 5, 3], default=0), min((4, 2)))
print(list(enumerate("ab", 10)), sorted({3: "c", 1: "a"}), list(zip()))
print(str(list(range(3))), tuple(range(2)), list({1: 2}.items()), bool([[]]))
