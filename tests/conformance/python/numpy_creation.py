# numpy array creation: literals of ints and floats, zeros/ones/full/eye, arange, linspace.
import numpy as np

a = np.array([1, 2, 3])
b = np.array([[1.0, 2.5], [3.0, 4.0]])
print(a, a.shape, a.ndim, a.size)
print(b)
print(b.shape, len(b))
print(np.zeros(3), np.ones((2, 2)))
print(np.full((2, 3), 7.5))
print(np.eye(3))
print(np.arange(5), np.arange(1, 2, 0.25))
print(np.linspace(0, 1, 5), np.linspace(0, 10, 4, endpoint=False))
print(a.tolist(), b.tolist(), np.zeros(2).tolist())
print(np.array([0.1, 0.25, 1e-3]))
