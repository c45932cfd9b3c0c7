// Number methods and constants: toString with a radix, toPrecision, integer tests.
console.log((255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2), (10).toString());
console.log((123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2), (1.5).toPrecision(1));
console.log((1234.5678).toExponential(2), (0).toExponential(), (5).toString().length);
console.log(Number.isInteger(5.0), Number.isInteger(5.1), Number.isSafeInteger(2 ** 53), Number.isSafeInteger(2 ** 53 - 1));
console.log(Number.EPSILON > 0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE);
console.log(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN);
console.log((25).toFixed(1), (1e-7).toFixed(10), (0.1 + 0.2).toFixed(17));
