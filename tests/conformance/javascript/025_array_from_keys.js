// Array.from with lengths and mappers, keys/values/entries iterators.
console.log(Array.from({ length: 4 }, (_, i) => i * i).join());
console.log(Array.from('abc').join('|'), Array.from([1, 2], (x) => x * 3).join());
console.log([...Array(3).keys()].join(), [...['a', 'b'].entries()].map(([i, v]) => i + v).join());
for (const [i, v] of ['x', 'y'].entries()) console.log(i, v);
const grid = Array.from({ length: 2 }, (_, r) => Array.from({ length: 3 }, (_, c) => r * 3 + c));
console.log(JSON.stringify(grid));
console.log(Array.from({ length: 2 }).map(String).join(), new Array(2, 3).join());
