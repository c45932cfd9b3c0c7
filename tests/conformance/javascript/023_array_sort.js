// sort: the default order compares strings; a comparator sorts numbers; sort is stable.
console.log([10, 9, 1, 100, 25].sort().join(','));
console.log([10, 9, 1, 100, 25].sort((a, b) => a - b).join(','));
console.log([10, 9, 1, 100, 25].sort((a, b) => b - a).join(','));
console.log(['b', 'a', 'C', 'c', 'B'].sort().join(''));
console.log([3, undefined, 1, null, 2].sort().map(String).join(','));
const items = [{ n: 'x', s: 2 }, { n: 'y', s: 1 }, { n: 'z', s: 2 }, { n: 'w', s: 1 }];
console.log(items.sort((p, q) => p.s - q.s).map((i) => i.n).join(''));
const byName = [...items].sort((p, q) => p.n.localeCompare(q.n));
console.log(byName.map((i) => i.n).join(''), items.map((i) => i.n).join(''));
const sorted = [5, 3, 4];
const same = sorted.sort();
console.log(same === sorted, sorted.join(), [3, 1, 2].toSorted?.((a, b) => a - b).join());
