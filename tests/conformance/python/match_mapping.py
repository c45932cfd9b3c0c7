# match: mapping patterns (extra keys allowed), **rest, values matched by sub-patterns.
def spec(d):
    match d:
        case {"type": "cube", "size": s}:
            return f"cube of size {s}"
        case {"type": "sphere", "radius": r, **rest}:
            return f"sphere r={r} rest={sorted(rest)}"
        case {"type": t}:
            return f"some {t}"
        case {}:
            return "empty-ish"


for d in [
    {"type": "cube", "size": 2, "color": "red"},
    {"type": "sphere", "radius": 0.5, "x": 1, "y": 2},
    {"type": "torus"},
    {"name": "x"},
]:
    print(spec(d))
