# f-string format specifications: precision, width, alignment, fill, sign, grouping,
# exponent, percent, hex, conversions, the = form and nested specs.
x = 3.14159
n = 42
name = "cube"
print(f"{x:.2f}|{x:8.3f}|{x:<8.1f}|{x:^9.2f}|{x:>+8.2f}")
print(f"{n:05d}|{n:x}|{n:X}|{n:o}|{n:b}|{n:+d}|{-n:d}")
print(f"{1234567.891:,.2f}|{1234567:_}|{0.256:.1%}|{12345.678:.3e}|{0.000123:g}")
print(f"[{name:>8}]|[{name:<8}]|[{name:^8}]|[{name:*^10}]")
print(f"{name!r}|{name!s}|{n=}|{x = :.1f}")
w, p = 10, 3
print(f"{x:{w}.{p}f}|")
print(f"{'nested ' + name}|{[1, 2][-1]}|{ {'a': 1}['a'] }")
print(f"{True}|{None}|{1.0}|{1e16}|{0.1 + 0.2}|{2.5:.0f}|{3.5:.0f}")
print(f"{-0.0:.1f}|{7:3}|{'ab':3}|{1.5:5}")
