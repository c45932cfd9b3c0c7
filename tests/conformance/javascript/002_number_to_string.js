// String(n) for doubles: integers without ".0", exponents from 1e21 and below 1e-6.
const values = [0, -0, 1, -1.5, 123.456, 1e21, 1e20, 123456789012345680000, 1e-6, 1e-7,
  0.000001234, 2 ** 53, 2 ** 53 + 1, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity,
  100 / 3, 2 / 3, 1 / 3 * 3, 0.1 * 3];
for (const v of values) console.log(String(v) + ' ' + `${v}` + ' ' + (v + ''));
