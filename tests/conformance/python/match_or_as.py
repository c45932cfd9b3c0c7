# match: or-patterns, as-patterns, and a wildcard inside an or.
def kind(shape):
    match shape:
        case "cube" | "box" as name:
            return f"box-like ({name})"
        case "sphere" | "ball":
            return "round"
        case ("cylinder" | "cone") as tall:
            return "tall " + tall
        case _:
            return "unknown"


for s in ["cube", "box", "ball", "cone", "torus"]:
    print(s, "->", kind(s))
