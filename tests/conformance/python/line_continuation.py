# Backslash line continuations, inside brackets too (no extra element), and implicit joins.
values = [1, 2, \
          3]
print(values, len(values))
total = 1 + \
    2 + \
    3
print(total)
point = (0.5, \
         1.5)
print(point)
text = ("a"
        "b")
print(text)
if total > 5 and \
        len(values) == 3:
    print("both")
print(dict(a=1, \
           b=2))
