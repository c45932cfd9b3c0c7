# match: a scene table dispatched on its kind, as Blender and Open3D replies write it.
import math

objects = [
    ("cube", (0, 0, 0), 2.0),
    ("sphere", (1, 2, 0), 0.5),
    ("cylinder", (-1, 0, 1), (0.3, 1.5)),
    ("cone", (2, 2, 2), (0.4, 1.0)),
    ("torus", (0, 3, 0), None),
]

volume = 0.0
for kind, (x, y, z), size in objects:
    match kind:
        case "cube":
            v = size ** 3
        case "sphere":
            v = 4 / 3 * math.pi * size ** 3
        case "cylinder" | "cone":
            r, h = size
            v = math.pi * r * r * h / (3 if kind == "cone" else 1)
        case _:
            print("skipped", kind)
            continue
    volume += v
    print(f"{kind:>8} at ({x}, {y}, {z}): {v:.3f}")
print(f"total {volume:.4f}")
