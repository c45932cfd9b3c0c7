# round() rounds halves to even, and works on the binary value; int() truncates.
import math

print(round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5))
print(round(2.675, 2), round(0.125, 2), round(1.005, 2))
print(round(1234.5678, -2), round(15, -1), round(25, -1))
print(round(3.14159, 3), round(7), type(round(7.0)).__name__)
print(int(-3.7), int(3.7), math.floor(-3.5), math.ceil(-3.5), math.trunc(-3.5))
