// Math: rounding of halves and negatives, min/max edge cases, roots and trigonometry.
const show = (...xs) => console.log(xs.map(String).join(' '));
show(Math.round(2.5), Math.round(-2.5), Math.round(-0.4), Math.round(0.49999999999999994), Math.round(-3.5));
show(Math.floor(-1.5), Math.ceil(-1.5), Math.trunc(-1.7), Math.sign(-3), Math.sign(0));
show(Math.max(), Math.min(), Math.max(1, NaN, 3), Math.max(...[4, 9, 2]), Math.min(-0, 0));
show(Math.sqrt(2), Math.cbrt(27), Math.cbrt(-8), Math.hypot(3, 4), Math.hypot(1, 2, 2));
show(Math.abs(-7.25), Math.pow(2, 0.5), Math.exp(1), Math.log(Math.E), Math.log10(1000), Math.log2(8));
show(Math.sin(Math.PI / 6), Math.cos(Math.PI), Math.tan(Math.PI / 4), Math.atan2(1, 1), Math.atan2(-0, -1));
show(Math.PI, Math.E, Math.SQRT2, Math.LN2);
show(Math.fround(5.5), Math.fround(0.1), Math.log1p(0), Math.expm1(0), Math.clz32(1), Math.imul(3, 4));
show(Math.asinh(0), Math.acosh(1), Math.atanh(0));
