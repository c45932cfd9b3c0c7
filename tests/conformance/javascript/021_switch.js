// switch: strict equality, fall-through, default in the middle, break inside loops.
function kind(x) {
  const out = [];
  switch (x) {
    case 1: out.push('one');
    case 2: out.push('two'); break;
    default: out.push('default');
    case 3: out.push('three');
    case '4': out.push('four-string'); break;
    case 5: { out.push('five'); }
  }
  return out.join('+');
}
for (const v of [1, 2, 3, 4, '4', 5, 6]) console.log(String(v), kind(v));
let log = '';
for (let i = 0; i < 5; i++) {
  switch (i % 3) {
    case 0: continue;
    case 1: log += 'a'; break;
    case 2: log += 'b';
  }
  log += i;
}
console.log(log);
const shape = 'cone';
switch (true) {
  case shape.startsWith('c') && shape.length > 4: console.log('long c'); break;
  case shape.startsWith('c'): console.log('short c'); break;
}
