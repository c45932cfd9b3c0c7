// JSON.stringify: nesting, omitted undefined and functions, NaN as null, indentation, toJSON.
const data = { a: 1, b: [1, 'two', null, undefined, () => 1], c: { d: true, e: undefined }, f: NaN, g: -0, h: 1e21, i: 'q"\n' };
console.log(JSON.stringify(data));
console.log(JSON.stringify([1, { x: [] }, {}], null, 2));
console.log(JSON.stringify({ a: [1, 2] }, null, '--'));
console.log(JSON.stringify('text'), JSON.stringify(3.5), JSON.stringify(null), JSON.stringify(undefined));
console.log(JSON.stringify({ toJSON() { return { replaced: 1 }; } }));
class P { constructor() { this.x = 1; this.y = 2; } get z() { return 3; } }
console.log(JSON.stringify(new P()), JSON.stringify({ 2: 'b', 1: 'a', z: 0 }));
const parsed = JSON.parse('{"pos":[1,2.5,-3],"name":"box","on":true,"none":null}');
console.log(parsed.pos[1] + parsed.pos[2], parsed.name, parsed.on, parsed.none);
console.log(JSON.stringify(JSON.parse(JSON.stringify(data))));
