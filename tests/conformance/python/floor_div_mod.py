# // and % follow the divisor's sign (floor division), on ints and floats; divmod and fmod.
import math

for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2)]:
    print(a, b, a // b, a % b, divmod(a, b))
print(-7.5 // 2, -7.5 % 2, 7.5 % -2)
print(math.fmod(-7, 2), -7 % 2.0)
print(-1 % 360, 370 % 360, -0.5 % 1)
print(10 / 4, 10 // 4, 2 ** -1, (-8) ** 2, -8 ** 2)
