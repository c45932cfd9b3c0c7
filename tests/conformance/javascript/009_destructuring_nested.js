// Nested destructuring, swaps, computed keys, renaming, strings.
let m = 1, n = 2;
[m, n] = [n, m];
console.log(m, n);
const key = 'pos';
const { [key]: [px, py], name: label = 'anon' } = { pos: [4, 5] };
console.log(px, py, label);
const [c1, c2] = 'hi';
console.log(c1, c2);
const points = [{ at: [1, 2] }, { at: [3, 4] }];
for (const { at: [u, v] } of points) console.log(u + v);
const { length } = 'seven';
console.log(length);
let o = {};
({ a: o.first, b: o.second = 'dflt' } = { a: 'A' });
console.log(o.first, o.second);
