# Objects as set items and dict keys (CPython hashes them by identity): the reader does not
# model it and must say so; lists of objects compare by identity, which it does follow.
class Node:
    def __init__(self, name):
        self.name = name


a, b = Node("a"), Node("b")
print(a in [a, b], b in [a], a is not b)
seen = set()
for n in [a, b, a]:
    if n not in seen:
        seen.add(n)
        print("visit", n.name)
print(len(seen))
