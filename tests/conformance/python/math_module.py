# The math module: constants, trigonometry, roots, rounding, and the integer functions.
import math

print(math.pi, math.e, math.tau, math.inf > 1e308)
print(math.sqrt(2), math.hypot(3, 4), math.atan2(1, -1), math.degrees(math.pi / 3))
print(round(math.sin(math.radians(30)), 12), math.cos(0), math.tan(math.pi / 4))
print(math.floor(2.7), math.ceil(2.1), math.fabs(-3), math.copysign(2, -0.0))
print(math.isclose(0.1 + 0.2, 0.3), math.gcd(12, 18), math.factorial(6), math.prod([2, 3, 4]))
print(math.dist((0, 0), (3, 4)), math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.log(math.e), math.log(8, 2), math.log10(1000), math.exp(0), math.pow(2, 0.5))
print(math.isfinite(1.0), math.isnan(float("nan")), math.comb(5, 2), math.asin(1) * 2)
