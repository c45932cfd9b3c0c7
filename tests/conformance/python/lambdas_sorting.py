# Lambdas as keys: sorted/min/max by key, map and filter, sorting dicts by a field.
objects = [
    {"name": "cube", "y": 1.5, "size": 2},
    {"name": "sphere", "y": 0.5, "size": 1},
    {"name": "cone", "y": 1.5, "size": 3},
]
print([o["name"] for o in sorted(objects, key=lambda o: o["y"])])
print([o["name"] for o in sorted(objects, key=lambda o: (-o["y"], o["name"]))])
print(max(objects, key=lambda o: o["size"])["name"], min(objects, key=lambda o: o["y"])["name"])
print(list(map(lambda o: o["size"] * 2, objects)), list(filter(lambda o: o["size"] > 1, objects))[0]["name"])
print(sorted([3, -1, 2], key=abs), sorted("bAc", key=str.upper))
f = lambda a, b=2, *rest: (a, b, rest)
print(f(1), f(1, 3, 4, 5))
print((lambda: "called")())
