# itertools: product, combinations, permutations, chain, islice, count, cycle, accumulate,
# repeat, zip_longest, groupby, starmap, pairwise.
import itertools
from itertools import chain, product

print(list(product([0, 1], repeat=2)))
print(list(product("ab", [1, 2])))
print(list(itertools.combinations(range(4), 2)))
print(list(itertools.permutations("abc", 2))[:4])
print(list(chain([1, 2], (3,), "xy")), list(chain.from_iterable([[1], [2, 3]])))
print(list(itertools.islice(itertools.count(5, 2), 4)))
print(list(itertools.islice(itertools.cycle("ab"), 5)))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.repeat("z", 3)))
print(list(itertools.zip_longest([1, 2, 3], "ab", fillvalue="-")))
for key, group in itertools.groupby("aaabccd"):
    print(key, len(list(group)))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.pairwise([1, 2, 4])))
