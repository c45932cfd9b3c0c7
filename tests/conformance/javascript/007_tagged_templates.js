// Tagged templates: the tag gets the literal parts and the values.
function tag(strings, ...values) {
  return strings.map((s, i) => s + (i < values.length ? `[${values[i]}]` : '')).join('');
}
console.log(tag`a${1}b${2 + 3}c`);
console.log(String.raw`x\ny${1}`);
