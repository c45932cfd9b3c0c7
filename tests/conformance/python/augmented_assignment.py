# Augmented assignment on names, list items, dict values and attributes, with every operator.
x = 10
x += 5
x -= 3
x *= 2
x /= 4
print(x)
n = 17
n //= 5
n **= 3
n %= 10
print(n)
bits = 0b1010
bits |= 1
bits &= 0b0111
bits ^= 0b100
bits <<= 2
bits >>= 1
print(bits)
items = [1, 2, 3]
items[0] += 10
items[-1] *= 2
print(items)
d = {"a": 1}
d["a"] += 1
d.setdefault("b", 0)
d["b"] -= 5
print(d)


class Box:
    def __init__(self):
        self.size = 1.0


box = Box()
box.size *= 3
box.size += 0.5
print(box.size)
s = "ab"
s += "c"
s *= 2
print(s)
t = (1,)
t += (2,)
print(t)
