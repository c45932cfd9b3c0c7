# Python built-ins over numpy arrays: max, min, sum, sorted, len, list, iteration, zip.
import numpy as np

a = np.array([3.0, -1.0, 2.5])
print(max(a), min(a), sum(a), sorted(a), len(a))
print(list(a), [float(x) for x in a], a.max(), a.argmin())
pts = np.array([[1.0, 2.0], [0.0, 5.0]])
for row in pts:
    print(row, row[0] + row[1])
for x, y in pts:
    print(x, y)
print(max(pts[:, 1]), min(p[0] for p in pts), sum(pts[:, 0]))
print(float(a[0]), int(a[1]), round(a[2]), abs(a[1]))
sizes = np.array([1, 2, 3])
for s, (px, py) in zip(sizes, pts):
    print(s, px, py)
