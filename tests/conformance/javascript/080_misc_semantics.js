// Odds and ends: string concatenation with unary plus, chained ternaries, try in loops.
console.log('b' + 'a' + +'a' + 'a', '3' - - '3', [] + null + 1);
const sign = (n) => (n > 0 ? 'pos' : n < 0 ? 'neg' : 'zero');
console.log(sign(1), sign(-1), sign(0), sign(-0));
switch (2) {
  case 1: { let v = 'one'; console.log(v); break; }
  case 2: { let v = 'two'; console.log(v); }
}
let out = '';
for (let i = 0; i < 3; i++) {
  try { if (i === 1) throw new Error('e' + i); out += i; } catch (e) { out += e.message; } finally { out += '|'; }
}
console.log(out);
console.log(Math.min(...[]), Math.max(...[1, 2], ...[3]), Math.round(1.4999999999999999), Math.round(-1.5));
console.log(String(123.0), (0.000001).toString(), (1e-7).toString(), (-1e-7).toFixed(3));
console.log(parseFloat('1.5e3'), parseFloat('0x10'), Number('1.'), Number('.'), Number('+.5'), Number('1e'), Number(' \n 42 \t'));
console.log(Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.7, 4.35 * 100, 1.1 + 2.2, `${1}${'2'}${[3]}${{}.toString()}`);
label: { if (true) break label; console.log('no'); }
console.log('after', typeof class {}, typeof function* () {});
