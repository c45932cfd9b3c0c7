# A scene script's own arithmetic: a table of objects, positions on a circle, names, totals.
import math

count = 6
radius = 2.5
objects = []
for i in range(count):
    angle = 2 * math.pi * i / count
    x, y = radius * math.cos(angle), radius * math.sin(angle)
    kind = ("cube", "sphere", "cone")[i % 3]
    objects.append({"name": f"{kind}_{i:02d}", "pos": (round(x, 4), round(y, 4), 0.5 * i)})
for obj in objects:
    print(obj["name"], obj["pos"])
print(sum(o["pos"][2] for o in objects), len({o["name"][:-3] for o in objects}))
heights = {o["name"]: o["pos"][2] for o in objects if o["pos"][2] > 1}
print(heights)
