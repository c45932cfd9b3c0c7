# Assignment expressions (walrus) in if, while and comprehensions.
data = [3, 8, 1, 9, 4]
if (n := len(data)) > 3:
    print("long list of", n)

values = iter(data)
total = 0
while (v := next(values, None)) is not None:
    total += v
print("total", total)

squares = [y for x in data if (y := x * x) > 10]
print(squares, y)

print([(last := i) * 2 for i in range(3)], last)
