// Spread in arrays, calls and objects (later keys win, order kept).
const a = [1, 2], b = [3];
const all = [0, ...a, ...b, ...'xy'];
console.log(all.length, all.join('|'));
console.log(Math.max(...all.filter((v) => typeof v === 'number')));
const base = { color: 'red', size: 1 };
const over = { ...base, size: 2, extra: true };
const under = { size: 5, ...base };
console.log(JSON.stringify(over), JSON.stringify(under));
function sum(...xs) { return xs.reduce((s, v) => s + v, 0); }
console.log(sum(...a, 10, ...b), sum());
const copy = [...a];
copy.push(99);
console.log(a.length, copy.length);
console.log(JSON.stringify({ ...null, ...undefined, ...[7, 8] }));
