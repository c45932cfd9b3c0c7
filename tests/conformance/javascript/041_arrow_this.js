// this: arrows take it from where they are written; methods from their receiver.
class Spinner {
  constructor() { this.angle = 0; this.steps = [1, 2, 3]; }
  spin() { this.steps.forEach((s) => { this.angle += s; }); return this.angle; }
  spinWith() { const self = this; this.steps.forEach(function (s) { self.angle += s * 10; }); return this.angle; }
}
const s = new Spinner();
console.log(s.spin(), s.spinWith());
const counter = { n: 0, add() { this.n++; return this; } };
console.log(counter.add().add().n);
const detached = { v: 'own', get() { return this.v; } };
const other = { v: 'other', get: detached.get };
console.log(other.get(), detached.get());
