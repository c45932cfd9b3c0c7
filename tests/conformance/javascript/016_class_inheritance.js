// Inheritance: super(...) arguments, super.method(), overrides, instanceof chains.
class Shape {
  constructor(name) { this.name = name; }
  area() { return 0; }
  describe() { return `${this.name} with area ${this.area().toFixed(2)}`; }
}
class Rect extends Shape {
  constructor(w, h) { super('rect'); this.w = w; this.h = h; }
  area() { return this.w * this.h; }
}
class Square extends Rect {
  constructor(s) { super(s, s); this.name = 'square'; }
  describe() { return super.describe() + ' (square)'; }
}
const shapes = [new Shape('blob'), new Rect(2, 3.5), new Square(1.5)];
for (const s of shapes) console.log(s.describe());
const sq = shapes[2];
console.log(sq instanceof Square, sq instanceof Rect, sq instanceof Shape, shapes[1] instanceof Square);
class NoCtor extends Rect {}
const nc = new NoCtor(4, 5);
console.log(nc.area(), nc.name);
