// Narrowing at run time: typeof, in, instanceof and user type guards.
type Solid = { kind: 'box'; size: number } | { kind: 'ball'; radius: number };
function isBox(s: Solid): s is { kind: 'box'; size: number } { return s.kind === 'box'; }
function volume(s: Solid): number {
  if (isBox(s)) return s.size ** 3;
  return 4 / 3 * Math.PI * s.radius ** 3;
}
const solids: Solid[] = [{ kind: 'box', size: 2 }, { kind: 'ball', radius: 1 }];
console.log(solids.map((s) => volume(s).toFixed(3)).join(' '));
function describe(x: string | number | number[]): string {
  if (typeof x === 'string') return 'text ' + x.length;
  if (Array.isArray(x)) return 'list ' + x.length;
  return 'number ' + x.toFixed(1);
}
console.log(describe('abc'), describe(2), describe([1, 2]));
const thing: object = { radius: 2 };
console.log('radius' in thing, 'size' in thing);
