// Object literals: computed keys, shorthand, methods with this, numeric keys as text.
const k = 'dyn';
const n = 7;
const obj = {
  n,
  [k + 'amic']: true,
  [`key${n}`]: n * 2,
  1.5: 'float key',
  0x10: 'hex key',
  'quoted-key': 'q',
  area() { return this.n * 2; },
  nested: { deep: { value: 42 } },
};
console.log(obj.dynamic, obj.key7, obj['1.5'], obj[16], obj['quoted-key'], obj.area());
console.log(Object.keys(obj).join(','));
console.log(obj.nested.deep.value, obj['nested']['deep']['value']);
obj.nested.deep.value += 1;
const alias = obj.nested;
alias.deep.value *= 2;
console.log(obj.nested.deep.value);
console.log(typeof obj.missing, obj.missing === undefined);
