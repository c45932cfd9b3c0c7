// instanceof with the built-in constructors and with user classes.
class Shape {}
class Box extends Shape {}
const values = [[], {}, new Box(), () => 1, new Map(), new Set(), 'text', 3, null];
const names = ['Array', 'Object', 'Shape', 'Box', 'Function', 'Map', 'Set'];
const ctors = [Array, Object, Shape, Box, Function, Map, Set];
for (const v of values) {
  console.log(ctors.map((c, i) => (v instanceof c ? names[i] : '-')).join(' '));
}
console.log(new TypeError('t') instanceof Error, new Error('e') instanceof TypeError, Array.isArray(new Array(2)));
