# match: capture patterns and guards; the first case whose guard holds wins.
def size_word(n):
    match n:
        case x if x < 0:
            return f"negative {x}"
        case x if x > 100:
            return f"huge {x}"
        case small:
            return f"plain {small}"


for n in [-5, 7, 250]:
    print(size_word(n))

match 3.5:
    case value:
        print("captured", value)
print("after", value)
