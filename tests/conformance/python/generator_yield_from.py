# yield from: delegation, the delegate's return value, recursion over a tree.
def inner():
    yield 1
    yield 2
    return "inner result"


def outer():
    result = yield from inner()
    print("inner returned", result)
    yield 3


print(list(outer()))


def walk(tree, depth=0):
    name, children = tree
    yield "  " * depth + name
    for child in children:
        yield from walk(child, depth + 1)


scene = ("root", [("table", [("cup", []), ("plate", [])]), ("chair", [])])
for line in walk(scene):
    print(line)

def chained():
    yield from [10, 20]
    yield from range(2)
    yield from "ab"

print(list(chained()))
