# Matrix products: @ and np.dot on matrices and vectors, transposes, inverse, cross, norm.
import numpy as np

theta = np.pi / 2
rz = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0], [0, 0, 1]])
p = np.array([1.0, 0.0, 0.0])
print(np.round(rz @ p, 6), np.round(np.dot(rz, p), 6))
m = np.array([[1.0, 2.0], [3.0, 4.0]])
print(m @ m, m.T, m.dot([1.0, 1.0]))
print(np.round(np.linalg.inv(m), 6))
t = np.eye(4)
t[:3, 3] = [1.0, 2.0, 3.0]
t[:3, :3] = rz
print(np.round(t @ np.array([1.0, 0.0, 0.0, 1.0]), 6))
print(np.cross([1, 0, 0], [0, 1, 0]), np.linalg.norm([3.0, 4.0]), np.outer([1, 2], [3, 4]))
