# Closures capture variables (late binding); defaults are evaluated once at definition.
funcs = [lambda: i for i in range(3)]
print([f() for f in funcs])
bound = [lambda i=i: i for i in range(3)]
print([f() for f in bound])


def append_to(item, target=[]):
    target.append(item)
    return target


print(append_to(1), append_to(2))
print(append_to(3, []))

scale = 2


def scaled(x, factor=scale):
    return x * factor


scale = 10
print(scaled(3), scaled(3, scale))


def adder(n):
    def add(x):
        return x + n

    return add


add5 = adder(5)
print(add5(1), adder(-1)(1))
