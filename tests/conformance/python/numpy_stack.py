# np.stack, column_stack, vstack, hstack, concatenate along an axis.
import numpy as np

xs = np.array([0.0, 1.0, 2.0])
ys = np.array([3.0, 4.0, 5.0])
zs = np.zeros(3)
print(np.stack([xs, ys, zs]))
print(np.stack([xs, ys, zs], axis=1))
print(np.column_stack([xs, ys, zs]))
print(np.column_stack((xs, ys)).shape)
print(np.vstack([xs, ys]), np.hstack([xs, ys]))
a = np.ones((2, 3))
print(np.concatenate([a, 2 * a]), np.concatenate([a, 2 * a], axis=1).shape)
