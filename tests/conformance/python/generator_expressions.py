# Generator expressions are lazy, single-use, and feed sum/any/all/next/max.
values = [3, 1, 4, 1, 5, 9, 2, 6]
print(sum(v * v for v in values))
print(any(v > 8 for v in values), all(v > 0 for v in values))
print(max(v for v in values if v % 2 == 0))
squares = (v * v for v in values)
print(next(squares), next(squares))
print(list(squares))
print(list(squares))


def noisy(v):
    print("computing", v)
    return v * 10


lazy = (noisy(v) for v in range(3))
print("before")
for item in lazy:
    print("item", item)
print(next((v for v in values if v > 4), "none"), next((v for v in values if v > 40), "none"))
