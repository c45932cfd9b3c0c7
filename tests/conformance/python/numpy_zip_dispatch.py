# Open3D-style tables in numpy arrays: positions (N, 3), sizes (N,), kinds, a zip loop with
# match dispatch, and values read back as floats.
import numpy as np

positions = np.array([[0.0, 0.0, 0.0], [1.5, 0.0, -1.0], [-1.0, 0.5, 2.0]])
sizes = np.array([1.0, 0.5, 2.0])
kinds = ["box", "sphere", "cylinder"]
made = []
for pos, size, kind in zip(positions, sizes, kinds):
    match kind:
        case "box":
            extent = (size, size, size)
        case "sphere":
            extent = (2 * size,) * 3
        case "cylinder":
            extent = (size, size * 3, size)
    centre = pos + np.array([0.0, extent[1] / 2, 0.0])
    made.append((kind, centre.tolist(), extent))
for item in made:
    print(item)
print(positions[:, 1].max(), float(sizes.sum()))
