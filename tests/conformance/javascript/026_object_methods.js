// Object.keys/values/entries (integer keys first, ascending), assign, fromEntries, freeze.
const o = { b: 1, 2: 'two', a: 3, 1: 'one', '-1': 'neg', '01': 'lead' };
console.log(Object.keys(o).join(','), Object.values(o).join(','));
console.log(Object.entries(o).map(([k, v]) => `${k}=${v}`).join(' '));
for (const k in o) console.log('key', k);
const target = { x: 1 };
const returned = Object.assign(target, { y: 2 }, null, { x: 3 });
console.log(returned === target, JSON.stringify(target));
console.log(JSON.stringify(Object.fromEntries([['a', 1], ['b', [2]]])));
const frozen = Object.freeze({ k: 1 });
frozen.k = 2;
frozen.extra = 3;
console.log(frozen.k, frozen.extra, Object.isFrozen(frozen));
console.log('a' in o, 'z' in o, o.hasOwnProperty('b'), Object.hasOwn(o, '2'));
delete o.b;
console.log(Object.keys(o).length, o.b);
