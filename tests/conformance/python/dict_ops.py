# dict operations: insertion order, get/setdefault/update/pop, views, merge, comprehension.
d = {"b": 2, "a": 1}
d["c"] = 3
print(d, list(d), list(d.values()), list(d.items()))
print(d.get("a"), d.get("z"), d.get("z", 0), "a" in d, "z" not in d, len(d))
d.setdefault("d", []).append(4)
d.setdefault("a", 100)
print(d)
d.update({"a": 10}, e=5)
print(d.pop("b"), d.pop("zz", "none"), d)
del d["c"]
print(sorted(d.items()), sorted(d, reverse=True))
merged = {"x": 1} | {"y": 2, "x": 3}
print(merged)
counts = {}
for ch in "abracadabra":
    counts[ch] = counts.get(ch, 0) + 1
print(counts, max(counts, key=counts.get))
print(dict(zip(["k1", "k2"], [1, 2])), dict(a=1, b=2), dict([("p", 0)]))
print({k: v for k, v in sorted(counts.items(), key=lambda kv: -kv[1])})
keys = list(counts.keys())
print(keys[:2], list(counts.values())[-1])
print({(0, 1): "a", (1, 0): "b"}[(1, 0)])
