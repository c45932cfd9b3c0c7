// Template literals: expressions, nesting, arrays and objects as text, escapes.
const n = 3, name = 'cube';
console.log(`${n} x ${name}s = ${n * 2}`);
console.log(`nested ${`inner ${n + 1}`} done`);
console.log(`array ${[1, 2, [3, 4]]} object ${{}} null ${null} undef ${undefined}`);
console.log(`bool ${true} float ${0.5 + 0.25} neg ${-0} big ${1e21}`);
console.log(`line1\nline2\ttab \`tick\` \${not}`);
const multi = `a
b`;
console.log(multi.length, multi.split('\n'));
console.log(`${n > 2 ? 'many' : 'few'} ${name.toUpperCase()}`);
