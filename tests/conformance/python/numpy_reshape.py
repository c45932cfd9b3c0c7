# numpy shapes: reshape, flatten/ravel, transpose, tile, repeat, newaxis, and len/iteration.
import numpy as np

a = np.arange(6)
print(a.reshape(2, 3), a.reshape((3, 2)), a.reshape(-1, 2).shape)
m = a.reshape(2, 3)
print(m.T, m.flatten(), m.ravel(), m.transpose().shape)
print(np.tile([1, 2], 2), np.repeat([1, 2], 2), a[:, np.newaxis].shape, a[None, :].shape)
for row in m:
    print(list(row))
print(np.array([[1, 2], [3, 4]]).tolist(), m[1].tolist())
