# Aliasing: lists and dicts are shared by reference; slices, list(), dict() and copy() copy.
a = [1, 2, [3, 4]]
b = a
c = a[:]
d = list(a)
b.append(5)
c[2].append("shared")
print(a, c, d, a is b, a is c, a == d)
grid = [[0] * 2] * 2
grid[0][0] = 1
print(grid)
grid = [[0] * 2 for _ in range(2)]
grid[0][0] = 1
print(grid)
cfg = {"size": 1}
copy = dict(cfg)
copy["size"] = 2
alias = cfg
alias["size"] = 3
print(cfg, copy, cfg.copy() == cfg)


def mutate(items, value):
    items.append(value)
    value = "changed"
    return value


keep = "kept"
mutate(a, keep)
print(a[-1], keep)
