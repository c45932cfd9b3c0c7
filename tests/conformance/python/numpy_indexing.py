# numpy indexing: slices, columns, steps, negative indices, boolean masks, index lists,
# assignment through each.
import numpy as np

a = np.arange(12.0).reshape(3, 4)
print(a[1], a[:, 0], a[1:, ::2], a[-1, -1], a[::-1, 0])
print(a[a > 6])
print(a[[0, 2]], a[[0, 2], [1, 3]])
mask = a[:, 0] > 2
print(mask, a[mask])
b = a.copy()
b[b > 8] = 0
b[:, 1] = -1
b[0] = [9, 9, 9, 9]
print(b)
print(a[0, 1:3], a[2, :2].sum(), len(a[0]))
v = np.array([5.0, 6.0, 7.0])
v[1:] *= 2
print(v, v[v.argmax()], v.argmax())
