# match: literal patterns (numbers, strings, None, booleans) and the wildcard.
def describe(value):
    match value:
        case 0:
            return "zero"
        case 1 | 2:
            return "small"
        case "cube":
            return "a cube"
        case None:
            return "nothing"
        case True:
            return "true"
        case _:
            return "other"


for v in [0, 1, 2, 3, "cube", "sphere", None, True, 2.0]:
    print(v, describe(v))
