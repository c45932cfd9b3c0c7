# global and nonlocal: counters in closures and module state changed from functions.
count = 0


def bump():
    global count
    count += 1
    return count


bump()
bump()
print("count", count)


def make_counter():
    n = 0

    def step(by=1):
        nonlocal n
        n += by
        return n

    return step


c1, c2 = make_counter(), make_counter()
print(c1(), c1(), c1(5), c2())


def shadow():
    count = 100
    return count


print(shadow(), count)
