// delete used for its value (true when the property is gone).
const o = { a: 1 };
console.log(delete o.a, 'a' in o);
