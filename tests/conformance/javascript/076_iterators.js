// Array iterators step with next() and are used up by iteration.
const it = ['a', 'b'].values();
console.log(JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()));
const entries = [10, 20].entries();
for (const [i, v] of entries) console.log(i, v);
console.log([...entries].length);
const m = new Map([['x', 1]]);
const keys = m.keys();
console.log(keys.next().value, keys.next().done);
