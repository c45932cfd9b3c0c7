# numpy trigonometry on angles in degrees: deg2rad, radians, sin/cos of arrays, rounding.
import numpy as np

deg = np.array([0, 30, 45, 90, 180])
rad = np.deg2rad(deg)
print(rad)
print(np.round(np.sin(rad), 6), np.round(np.cos(rad), 6))
print(np.radians(90.0), np.degrees(np.pi), np.rad2deg(rad[2]))
angles = np.linspace(0, 2 * np.pi, 4, endpoint=False)
circle = np.column_stack([np.cos(angles), np.sin(angles), np.zeros(4)])
print(np.round(circle, 3))
print(np.allclose(np.linalg.norm(circle, axis=1), 1.0), np.arctan2(1.0, 1.0))
