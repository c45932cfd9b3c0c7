// String methods scene code uses for names and labels.
const s = 'Hello, World';
console.log(s.length, s.toUpperCase(), s.toLowerCase(), s.indexOf('o'), s.indexOf('o', 5), s.lastIndexOf('o'));
console.log(s.slice(-5), s.slice(0, -7), s.substring(5, 0), s.substr(7, 3), s.charAt(4), s.at(-1));
console.log(s.split(', '), s.split(''), s.split(',', 1), 'a,b,,c'.split(','));
console.log('  pad  '.trim() + '|', '  pad  '.trimStart() + '|', '  pad  '.trimEnd() + '|');
console.log('7'.padStart(3, '0'), 'ab'.padEnd(5, '-='), 'abc'.padStart(2), 'x'.repeat(3));
console.log(s.startsWith('Hell'), s.endsWith('ld'), s.includes('lo, W'), s.search('W'));
console.log('a-b-c'.replace('-', '+'), 'a-b-c'.replaceAll('-', '+'), 'x'.concat('y', 1, 2));
console.log(s.charCodeAt(0), String.fromCharCode(72, 105), s.codePointAt(1));
console.log('b'.localeCompare('a'), 'a' < 'b', 'B' < 'a', '10' < '9', 'abc'.at(0));
