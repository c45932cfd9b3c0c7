// delete (as a statement), in, void and the comma operator.
const o = { a: 1, b: 2 };
delete o.a;
console.log('a' in o, o.a, Object.keys(o).join());
const key = 'b';
delete o[key];
console.log(Object.keys(o).length, JSON.stringify(o));
console.log(void 0, void 'x', typeof void 0);
let x = (1, 2, 3);
console.log(x);
for (let i = 0, j = 5; i < j; i++, j--) x += i * j;
console.log(x);
