# Numbers and text: int/float/str/bool conversions, float repr, big and small floats.
print(int("12"), int("-7"), int(3.99), int("ff", 16), int("0b101", 0), float("1.5"), float("inf"))
print(str(1.0), str(2), str(0.1 + 0.2), str(1e16), str(1e-5), str(123456789.0), str(1.5e300))
print(1 / 3, 2 / 3, 10 / 2, 7.0, -0.0, 1e100, 3e-7, 100.0 * 1.1)
print(float(2), float("  3.25 "), bool("False"), bool(0.0), str(True), str(None))
print(repr(1.0), repr("x"), repr([1.0, "a", None, True]), repr((1,)), repr(()))
print(abs(-2), abs(-2.5), pow(2, 10), pow(2, -1), pow(3, 4, 5), 2 ** 0.5)
print(7 & 3, 7 | 8, 7 ^ 2, 1 << 4, 256 >> 2, ~5, 10 ** 20, 2 ** 64)
print(hex(255), bin(5), oct(8), divmod(17, 5), max(1, 2.5), min(-1, -1.0))
