// Parameters: defaults that see earlier parameters, rest, arguments, length and name.
function f(a, b = a * 2, ...rest) { return `${a} ${b} ${rest.length}`; }
console.log(f(1), f(1, undefined, 3, 4), f(1, null));
function g() { return arguments.length + ':' + Array.from(arguments).join(','); }
console.log(g(), g(1, 'x', 3));
function h(x, y, z = 1) {}
const arrow = (p, q) => p + q;
console.log(h.length, arrow.length, h.name, arrow.name, (function () {}).name);
const obj = { method() { return 'm'; }, named: function inner() { return typeof inner; } };
console.log(obj.method.name, obj.named(), obj.named.name);
function outer() { return typeof inner2; function inner2() {} }
console.log(outer());
const fact = function self(n) { return n <= 1 ? 1 : n * self(n - 1); };
console.log(fact(6));
