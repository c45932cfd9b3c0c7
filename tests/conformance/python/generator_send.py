# Generators driven by next() and send(): the value of a yield expression, priming, close.
def accumulator():
    total = 0
    while True:
        value = yield total
        if value is None:
            break
        total += value


acc = accumulator()
print(next(acc))
print(acc.send(5))
print(acc.send(10))
print(next(acc, "stopped"))


def echo():
    received = yield "ready"
    print("received", received)
    yield received * 2


e = echo()
print(next(e))
print(e.send(21))
