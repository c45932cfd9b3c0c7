// Generators: lazy bodies, for-of, spread, next() with {value, done}, yield*, return values.
function* count(n) {
  for (let i = 0; i < n; i++) yield i;
  return 'finished';
}
console.log([...count(4)].join(','), Array.from(count(3), (x) => x * 10).join(','));
const it = count(2);
console.log(JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()));
function* inner() { yield 'a'; yield 'b'; return 'inner done'; }
function* outer() { const r = yield* inner(); yield r; yield* [1, 2]; }
console.log([...outer()].join(' '));
const log = [];
function* lazy() { log.push('start'); yield 1; log.push('middle'); yield 2; log.push('end'); }
for (const v of lazy()) { log.push(`got ${v}`); if (v === 2) break; }
console.log(log.join(' | '));
function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }
const first = [];
for (const f of fib()) { if (f > 50) break; first.push(f); }
console.log(first.join(' '));
function* echo() { let got = yield 'ready'; while (got !== 'stop') got = yield `echo ${got}`; }
const e = echo();
console.log(e.next().value, e.next('x').value, e.next('y').value, e.next('stop').done);
const [g1, g2, ...gRest] = count(5);
console.log(g1, g2, gRest.length);
