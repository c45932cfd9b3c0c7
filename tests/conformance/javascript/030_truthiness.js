// Truthiness: which values are falsy; ! and !!; conditions on objects and strings.
const vals = [0, -0, NaN, '', null, undefined, false, '0', 'false', [], {}, ' ', -1, Infinity];
console.log(vals.map((v) => (v ? 'T' : 'F')).join(''));
console.log(vals.map((v) => String(!!v)).join(','));
let hits = 0;
if ([]) hits++;
if ({}) hits++;
if ('0') hits++;
if (0.0) hits += 100;
console.log(hits, !'', !!'x', !null);
const pick = (v) => v && v.length ? v : 'empty';
console.log(pick(''), pick('abc'), pick([]), pick([1]).length);
