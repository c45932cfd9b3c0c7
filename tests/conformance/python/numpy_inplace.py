# In-place operators on arrays (as vertex arrays are centred and scaled) keep every alias.
import numpy as np

verts = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 4.0, 0.0], [0.0, 4.0, 2.0]])
alias = verts
verts -= verts.mean(axis=0)
print(verts)
print(alias is verts, alias[0])
verts *= 0.5
verts += np.array([10.0, 0.0, 0.0])
print(verts)
verts[:, 2] += 1
verts[0] /= 2
print(verts)
counts = np.zeros(3)
counts += 1
counts[1] -= 3
print(counts)
grid = np.zeros((2, 3))
row = grid[1]
row += 5
column = grid[:, 0]
column -= 1
print(grid)
