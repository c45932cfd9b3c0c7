// More text: splitting and joining names, case, numbers in names, comparisons.
const names = 'cube_1,sphere_2,cone_10'.split(',');
console.log(names.map((n) => n.split('_')[0]).join(' '), names.map((n) => Number(n.split('_')[1]) * 2).join(' '));
const title = (w) => w.charAt(0).toUpperCase() + w.slice(1);
console.log(names.map(title).join(' '));
console.log('abc'[1], 'abc'[5], 'abc'.length, ''.length, 'a' + 'b'.repeat(2));
console.log('Line'.padEnd(8, '.') + 'End', 'x'.padStart(0), 'ab'.split('').reverse().join(''));
console.log('%', 'a%b', 'tab\tsep', 'A'.toLowerCase() === 'a');
console.log(['b', 'a'].join(), ['x'].join('--'), [null, undefined, 1].join('-'));
console.log('one two  three'.split(' '), 'csv'.split(), ''.split(','), ''.split(''));
