# Star unpacking in assignments, for targets, calls, list/tuple/dict displays.
first, *middle, last = [1, 2, 3, 4, 5]
print(first, middle, last)
*init, tail = "abc"
print(init, tail)
a, (b, *c) = 1, (2, 3, 4)
print(a, b, c)
head, *rest = (9,)
print(head, rest)
for x, *others in [(1, 2, 3), (4,)]:
    print(x, others)


def total(*args, scale=1, **kwargs):
    return sum(args) * scale, sorted(kwargs.items())


nums = [1, 2, 3]
opts = {"scale": 2, "label": "x"}
print(total(*nums, **opts))
print(total(0, *nums, 4, *nums))
print([*nums, *"ab", *range(2)])
print((*nums, 0))
base = {"a": 1, "b": 2}
print({**base, "b": 3, **{"c": 4}})
print(*nums, sep="-")
