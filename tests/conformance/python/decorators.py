# Function decorators: a wrapper that logs, one with arguments, stacking.
def logged(fn):
    def wrapper(*args, **kwargs):
        print("calling", fn.__name__, args)
        return fn(*args, **kwargs)

    return wrapper


def times(n):
    def decorate(fn):
        def wrapper(x):
            return fn(x) * n

        return wrapper

    return decorate


@logged
def add(a, b):
    return a + b


@times(3)
def inc(x):
    return x + 1


@logged
@times(2)
def square(x):
    return x * x


print(add(1, 2))
print(inc(4))
print(square(3))
