# List, dict and set comprehensions: nesting, several for clauses, conditions, scoping.
grid = [[r * 3 + c for c in range(3)] for r in range(3)]
print(grid)
print([x for row in grid for x in row if x % 2 == 0])
print({k: v * v for k, v in zip("abc", [1, 2, 3])})
print(sorted({x % 4 for x in range(20)}))
print([(i, j) for i in range(3) for j in range(i)])
print(["even" if x % 2 == 0 else "odd" for x in range(4)])
x = "outer"
print([x for x in range(3)], x)
print({name: len(name) for name in ["cube", "sphere"] if "e" in name})
print(list(map(str, [1, 2.5, None])))
