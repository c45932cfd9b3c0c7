// delete, in, void and the comma operator.
const o = { a: 1, b: 2 };
console.log(delete o.a, 'a' in o, o.a, Object.keys(o).join());
const arr = [1, 2, 3];
delete arr[1];
console.log(arr.length, arr[1], 1 in arr);
console.log(void 0, void 'x', typeof void 0);
let x = (1, 2, 3);
console.log(x);
for (let i = 0, j = 5; i < j; i++, j--) x += i * j;
console.log(x);
