// Array idioms of scene code: filled grids, holes filled, Object.assign on arrays.
console.log(Array(3).fill().map((_, i) => i * 2).join(), [...Array(3)].map((_, i) => i).join());
const grid = Array.from(Array(2), () => new Array(2).fill(0));
grid[0][1] = 5;
console.log(JSON.stringify(grid));
console.log(Object.entries('ab').join(';'), Object.keys([4, 5]).join(), Object.values('hi').join());
console.log(Object.assign([], [1, 2]).length, Object.assign({}, 'ab')[1]);
console.log([1, [2, [3, [4]]]].flat(2).length, [[]].flat().length, ['a', , 'b'].length);
const objs = [{ n: 2 }, { n: 1 }];
const [min] = objs.slice().sort((p, r) => p.n - r.n);
console.log(min.n, objs[0].n);
console.log([3, 2, 1].map(String).sort().join(), ['10', '9', '1'].sort((a, b) => a - b).join());
let i = 0;
const fns = [];
while (i < 3) { let j = i; fns.push(() => j); i++; }
console.log(fns.map((f) => f()).join());
