# numpy broadcasting: scalars, rows against columns, vectors against (N, 3) arrays.
import numpy as np

pts = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(pts + 1)
print(pts * np.array([1.0, 0.5, 2.0]))
col = np.array([[1.0], [2.0]])
row = np.array([10.0, 20.0, 30.0])
print(col + row)
print(pts.mean(axis=0), pts.sum(axis=1), pts.max(), pts.min(axis=0))
print(pts - pts.mean(axis=0))
print((pts ** 2).sum(axis=1) ** 0.5)
print(2 * pts[1] - 1, -pts[2], abs(np.array([-1.5, 2.0])))
