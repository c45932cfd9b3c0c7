// Typed arrays store each number as their type does; they never grow.
const f32 = new Float32Array([0.1, 1.5, 1e40]);
console.log(f32[0], f32[1], f32[2], f32.length);
console.log(Array.from(new Int8Array([127, 128, -129, 3.7])).join(), Array.from(new Uint8Array([256, -1, 3.9])).join());
console.log(Array.from(new Uint8ClampedArray([300, -5, 1.5, 2.5])).join());
const pos = new Float32Array(6);
pos.set([1, 2, 3], 3);
console.log(Array.from(pos).join());
const t = new Float32Array(2);
t[0] = 0.1;
t[5] = 3;
console.log(t[0], t.length, t[5]);
const m = new Float32Array([1.1, 2.2]).map((v) => v * 3);
console.log(m[0], m[1], new Float64Array(3).fill(2.5).reduce((a, b) => a + b, 0));
