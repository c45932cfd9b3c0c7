// Tuples, readonly arrays and labelled tuple types.
type Vec3 = readonly [x: number, y: number, z: number];
const positions: Vec3[] = [[0, 1, 2], [3, 4, 5]];
for (const [x, y, z] of positions) console.log(x + y + z);
const ro: ReadonlyArray<string> = ['a', 'b'];
console.log(ro.includes('b'), ro.map((s) => s + s).join());
function swap<A, B>([a, b]: [A, B]): [B, A] { return [b, a]; }
console.log(swap([1, 'x']).join(' '));
const optionalTuple: [number, string?] = [1];
console.log(optionalTuple.length, optionalTuple[1]);
