// Labelled break and continue leave or continue the named loop.
const found = [];
outer: for (let i = 0; i < 4; i++) {
  for (let j = 0; j < 4; j++) {
    if (j === 2) continue outer;
    if (i === 3) break outer;
    found.push(`${i}${j}`);
  }
}
console.log(found.join(' '));
let n = 0;
loop: while (true) {
  n++;
  switch (n) {
    case 5: break loop;
    default: continue loop;
  }
}
console.log(n);
block: {
  console.log('in block');
  if (n === 5) break block;
  console.log('not printed');
}
const pairs = [];
rows: for (const r of [1, 2, 3]) {
  cols: for (const c of [1, 2, 3]) {
    if (c > r) continue rows;
    if (r * c === 6) break rows;
    pairs.push(r * c);
  }
}
console.log(pairs.join(','));
