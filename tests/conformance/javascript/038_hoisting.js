// Hoisting: function declarations are usable before them; var is undefined before it.
console.log(early(2));
function early(x) { return x * 10; }
function vars() {
  const before = `${typeof v} ${v}`;
  var v = 'now set';
  return `${before} ${v}`;
}
console.log(vars());
function scope() {
  if (true) { var inside = 'var escapes the block'; }
  return inside;
}
console.log(scope());
x = 5;
var x;
console.log(x);
var twice = 1;
var twice;
console.log(twice);
function params(p, f) {
  var p;
  var f;
  function f() { return 'fn'; }
  return `${p} ${typeof f}`;
}
console.log(params('kept'));
