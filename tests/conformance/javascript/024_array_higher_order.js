// map, filter, reduce, reduceRight, some, every, find, forEach with the index and array.
const xs = [1, 2, 3, 4, 5];
console.log(xs.map((x, i) => x * i).join(), xs.filter((x, i, arr) => x > arr.length - 3).join());
console.log(xs.reduce((s, x) => s + x), xs.reduce((s, x) => s + x, 10), xs.reduceRight((s, x) => s + x, ''));
console.log(xs.some((x) => x > 4), xs.every((x) => x > 0), [].every(() => false), [].some(() => true));
console.log(xs.find((x) => x % 2 === 0), xs.findIndex((x) => x > 3), xs.find((x) => x > 10));
let total = 0;
xs.forEach((x, i) => { total += x * 10 ** i; });
console.log(total);
const words = ['cube', 'sphere', 'cone'];
console.log(words.map((w) => w.length).join(), words.map((w, i) => `${i}:${w}`).join(' '));
console.log(JSON.stringify(words.reduce((acc, w) => ({ ...acc, [w]: w.length }), {})));
console.log(['1', '2', '3'].map(Number).join(), ['1', '2', '3'].map(parseFloat).join());
console.log(xs.map(String).join(''), [0, 1, '', 'a', null].filter(Boolean).length);
