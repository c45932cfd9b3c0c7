// Closures in loops: each let iteration has its own binding; var has one for the function.
const withLet = [], withVar = [];
for (let i = 0; i < 3; i++) withLet.push(() => i);
for (var j = 0; j < 3; j++) withVar.push(() => j);
console.log(withLet.map((f) => f()).join(','), withVar.map((f) => f()).join(','));
const fromOf = [];
for (const k of [10, 20, 30]) fromOf.push(() => k);
console.log(fromOf.map((f) => f()).join(','));
const mutated = [];
for (let i = 0; i < 3; i++) { mutated.push(() => i); i += 0; }
console.log(mutated.map((f) => f()).join(','));
const inWhile = [];
let w = 0;
while (w < 3) { const c = w * 10; inWhile.push(() => c); w++; }
console.log(inWhile.map((f) => f()).join(','));
console.log(j);
