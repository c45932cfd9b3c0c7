// Closures keep their own state; IIFEs; functions returning functions.
function counter(start = 0) {
  let n = start;
  return { inc: () => ++n, get: () => n };
}
const c1 = counter(), c2 = counter(10);
c1.inc(); c1.inc(); c2.inc();
console.log(c1.get(), c2.get());
const adder = (x) => (y) => (z) => x + y + z;
console.log(adder(1)(2)(3));
const result = (function (k) { return k * k; })(7);
console.log(result);
const memo = (() => { const cache = {}; return (n) => cache[n] ?? (cache[n] = n * 2); })();
console.log(memo(4), memo(4));
let shared = 1;
const read = () => shared;
shared = 2;
console.log(read());
