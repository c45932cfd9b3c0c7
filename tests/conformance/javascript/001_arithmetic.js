// Arithmetic on doubles: division, remainder with negatives, powers, division by zero.
console.log(7 / 2, 7 % 3, -7 % 3, 7 % -3, 5.5 % 2);
console.log(2 ** 10, 2 ** -1, (-8) ** (1 / 3), 10 ** 21);
console.log(1 / 0, -1 / 0, 0 / 0, 1 / -0);
console.log(0.1 + 0.2, 0.3 - 0.1, 1.1 * 3, 1e16 + 1);
let x = 10;
x += 5; x -= 3; x *= 2; x /= 4; x %= 4; x **= 3;
console.log(x);
let i = 0;
const a = i++ + ++i;
console.log(a, i, i--, --i, i);
