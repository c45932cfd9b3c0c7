// Arrays: mutators and their return values, searching, slicing, joining.
const a = [3, 1, 2];
console.log(a.push(4, 5), a.pop(), a.shift(), a.unshift(0), a.join('-'));
console.log(a.indexOf(2), a.indexOf(9), a.lastIndexOf(2), a.includes(1), [NaN].includes(NaN), [NaN].indexOf(NaN));
console.log(a.slice(1).join(), a.slice(-2).join(), a.slice(1, -1).join(), a.concat([7, [8]], 9).length);
const b = [1, 2, 3, 4, 5];
console.log(b.splice(1, 2).join(), b.join(), b.splice(-1, 1, 'x', 'y').join(), b.join());
console.log(new Array(3).fill(0).join(), [1, 2, 3, 4].fill(9, 1, 3).join(), Array(2).length);
console.log([[1, [2]], [3]].flat().length, [[1, [2, [3]]]].flat(Infinity).join(), [1, 2].flatMap((x) => [x, x * 10]).join());
console.log([1, 2, 3].at(-1), [1, 2, 3].reverse().join(), [].pop(), [1, [2, 3]].toString());
const c = [1, 2, 3];
c.length = 1;
console.log(c.join(), c.length);
c[4] = 'e';
console.log(c.length, c[2], String(c));
console.log(Array.isArray(c), Array.isArray('no'), Array.of(7).length, [1, 2, 3].findLast((x) => x < 3), [1, 2, 3].findLastIndex((x) => x > 5));
