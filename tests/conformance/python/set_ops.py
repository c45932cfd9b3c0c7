# set operations: union, intersection, differences, membership, add/discard, frozenset.
a = {1, 2, 3, 4}
b = {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(a.union([9]) == {1, 2, 3, 4, 9}, a.issubset({1, 2, 3, 4, 5}), {3} <= b)
a.add(10)
a.discard(1)
a.discard(100)
print(sorted(a), 10 in a, 1 in a, len(a))
seen = set()
for x in [3, 1, 3, 2, 1]:
    if x not in seen:
        seen.add(x)
        print("new", x)
print(len(seen), sorted(seen))
pairs = {(1, 2), (2, 1), (1, 2)}
print(len(pairs), sorted(pairs))
f = frozenset("aab")
print(sorted(f), len(f))
print(set(), {1, 2} == {2, 1}, sorted({"b", "a"}))
print(sorted(set([3, 1, 2])), set([1, 1]) == {1})
