# Slicing with steps, negative indices and bounds, slice assignment and deletion.
xs = list(range(10))
print(xs[::2], xs[1::3], xs[::-1], xs[-3:], xs[:-7], xs[8:2:-2])
print(xs[100:], xs[-100:2], xs[5:5])
s = "spatialbabel"
print(s[::-1], s[2:5], s[-5:], s[::3])
t = (1, 2, 3, 4)
print(t[1:3], t[::-2])
ys = [0, 1, 2, 3, 4, 5]
ys[1:3] = ["a", "b", "c"]
print(ys)
ys[::2] = [9, 9, 9, 9]
print(ys)
del ys[1:3]
print(ys)
del ys[::2]
print(ys)
zs = [1, 2, 3]
zs[len(zs):] = [4, 5]
print(zs, zs[-1], zs[-2])
