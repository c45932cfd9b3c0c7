// Recursion: Fibonacci, mutual recursion, recursive structures.
const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));
console.log(fib(15));
function isEven(n) { return n === 0 ? true : isOdd(n - 1); }
function isOdd(n) { return n === 0 ? false : isEven(n - 1); }
console.log(isEven(10), isOdd(7));
function depth(tree) { return tree.children.length === 0 ? 1 : 1 + Math.max(...tree.children.map(depth)); }
const tree = { children: [{ children: [] }, { children: [{ children: [{ children: [] }] }] }] };
console.log(depth(tree));
function build(level) { return level === 0 ? [] : [level, ...build(level - 1)]; }
console.log(build(5).join());
