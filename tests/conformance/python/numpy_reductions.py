# numpy reductions and element-wise helpers: mean/sum/min/max by axis, clip, where, sqrt,
# abs, argmax, any/all, dtype of int and float arrays.
import numpy as np

a = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
print(np.mean(a), np.mean(a, axis=0), np.sum(a, axis=1), np.max(a, axis=0), np.min(a))
print(np.clip(a, -1, 2))
print(np.where(a > 0, a, 0.0))
print(np.sqrt(np.abs(a)).round(3))
print(a.argmax(), np.argmax(a, axis=1), (a > 0).any(), (a > 0).all(axis=1))
ints = np.array([1, 2, 3])
print(ints.dtype, (ints / 2).dtype, ints * 2, ints // 2, ints.astype(float))
print(np.array([1.5, 2.5]).astype(int), a.sum(), a.shape[0], a.std().round(4))
