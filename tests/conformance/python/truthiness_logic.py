# Truthiness of values, and/or returning operands, chained comparisons, identity tests.
for value in [0, 0.0, 1, "", "a", [], [0], {}, {"k": 1}, None, (), set()]:
    print(repr(value), bool(value), "yes" if value else "no")
print(0 or "default", "x" and "y", None or 0 or [], 1 and 0 and 2)
print(1 < 2 < 3, 3 > 2 > 2, 1 == 1.0 != 2, 1 < 3 > 2)
x = None
print(x is None, x is not None, not x, not [1])
print([] == [], [] is [], (1, 2) == (1, 2), "a" != "b")
print(True + True, True * 3, False == 0, 1 == True)
