// Destructuring with defaults: a default applies to undefined only, never to null.
const { a = 1, b = 2, c = 3 } = { a: 10, b: null, c: undefined };
console.log(a, b, c);
const [x = 'x', y = 'y', z = x + y] = [undefined, 0];
console.log(x, y, z);
function size({ width = 1, height = width * 2, depth } = {}) {
  return `${width} ${height} ${depth}`;
}
console.log(size(), size({ width: 3 }), size({ height: 0, depth: 5 }));
const { p: { q = 'deep' } = {}, ...rest } = { r: 1, s: 2 };
console.log(q, JSON.stringify(rest));
const [first, , third = 'none', ...others] = [1, 2, undefined, 4, 5];
console.log(first, third, others.length, others[1]);
