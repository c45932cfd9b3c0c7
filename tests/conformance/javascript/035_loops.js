// for, while, do-while, for-in over arrays (string keys), for-of over strings.
let out = '';
for (let i = 0, j = 10; i < j; i += 3, j -= 1) out += `${i}:${j} `;
console.log(out);
let k = 0;
do { k += 2; } while (k < 5);
console.log(k);
let w = 10;
while (w > 0) { w -= 3; if (w === 4) continue; if (w < 2) break; }
console.log(w);
const keys = [];
for (const idx in ['a', 'b', 'c']) keys.push(typeof idx + idx);
console.log(keys.join(','));
const chars = [];
for (const ch of 'héllo') chars.push(ch);
console.log(chars.join('.'));
for (let i = 0; i < 3; i++) {}
let last;
for (last = 0; last < 5; last++) {}
console.log(last);
let count = 0;
for (;;) { if (++count > 4) break; }
console.log(count);
