# range with steps (negative too), enumerate with a start, zip of unequal lengths, zip(*m).
print(list(range(10, 0, -3)))
print(list(range(0, 10, 4)), list(range(5, 5)), list(range(-3, 3, 2)))
print(len(range(0, 100, 7)), range(0, 100, 7)[3], 14 in range(0, 100, 7))
print(list(reversed(range(4))))
for i, name in enumerate(["cube", "cone"], start=1):
    print(i, name)
print(list(zip([1, 2, 3], "ab")))
matrix = [[1, 2, 3], [4, 5, 6]]
print(list(zip(*matrix)))
print([list(col) for col in zip(*matrix)])
print(list(enumerate(zip("xy", [10, 20]))))
for i, (a, b) in enumerate(zip(range(3), range(10, 13))):
    print(i, a + b)
print(list(range(0, -10, -4)), range(3)[-1])
