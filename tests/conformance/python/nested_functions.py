# Nested functions, functions as values, recursion through a nested helper, early returns.
def build(kinds):
    made = []

    def add(kind, n=1):
        for _ in range(n):
            made.append(kind)
        return len(made)

    for kind in kinds:
        if kind == "stop":
            break
        add(kind, 2 if kind.startswith("c") else 1)
    return made


print(build(["cube", "sphere", "stop", "cone"]))
ops = {"double": lambda x: x * 2, "neg": lambda x: -x}
print([ops[name](3) for name in ("double", "neg")])


def apply(fn, *args):
    return fn(*args)


print(apply(max, 1, 9, 4), apply(lambda: "none"))


def first_even(xs):
    for x in xs:
        if x % 2 == 0:
            return x
    return None


print(first_even([1, 3, 4, 6]), first_even([1]))
