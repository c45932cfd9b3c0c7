// A small vector class as scene helpers write them, printed with toFixed.
class Vec {
  constructor(x = 0, y = 0, z = 0) { this.x = x; this.y = y; this.z = z; }
  add(v) { return new Vec(this.x + v.x, this.y + v.y, this.z + v.z); }
  scale(s) { return new Vec(this.x * s, this.y * s, this.z * s); }
  length() { return Math.hypot(this.x, this.y, this.z); }
  normalize() { const l = this.length() || 1; return this.scale(1 / l); }
  toString() { return `(${[this.x, this.y, this.z].map((c) => c.toFixed(3)).join(', ')})`; }
  static lerp(a, b, t) { return a.scale(1 - t).add(b.scale(t)); }
}
const a = new Vec(1, 2, 2), b = new Vec(-1, 0, 4);
console.log(`${a.length()} ${a.normalize()} ${Vec.lerp(a, b, 0.25)}`);
let p = new Vec();
for (let i = 0; i < 5; i++) p = p.add(new Vec(Math.cos(i), Math.sin(i), i / 2));
console.log(String(p), p.length().toFixed(6));
