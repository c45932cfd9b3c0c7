// for-in over objects and class instances: own enumerable keys, integer keys first.
const o = { z: 1, 10: 'ten', a: 2, 2: 'two' };
const seen = [];
for (const key in o) seen.push(key);
console.log(seen.join(' '));
class P { constructor() { this.x = 1; this.y = 2; } m() {} }
const ps = [];
for (const key in new P()) ps.push(key);
console.log(ps.join(' '));
const counts = {};
for (const w of ['a', 'b', 'a', 'c', 'a']) counts[w] = (counts[w] || 0) + 1;
for (const [w, c] of Object.entries(counts)) console.log(w, c);
