# match: sequence patterns, fixed length, star captures, nesting; strings are no sequences here.
def read(item):
    match item:
        case []:
            return "empty"
        case [x]:
            return f"one {x}"
        case [x, y]:
            return f"pair {x},{y}"
        case [first, *middle, last]:
            return f"first {first} middle {middle} last {last}"


def nested(item):
    match item:
        case (("move", dx, dy), count):
            return f"move {dx} {dy} x{count}"
        case ["scale", *factors] if len(factors) == 3:
            return f"scale {factors}"
        case str(text):
            return f"text {text}"
        case _:
            return "no match"


for item in [[], [1], (1, 2), [1, 2, 3, 4]]:
    print(read(item))
for item in [(("move", 1, 2), 3), ["scale", 1, 2, 3], ["scale", 1], "abc", 42]:
    print(nested(item))
