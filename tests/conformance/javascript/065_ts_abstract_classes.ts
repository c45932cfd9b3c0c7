// Abstract classes: abstract members are erased, concrete subclasses run.
abstract class Primitive {
  abstract readonly kind: string;
  protected constructor(public size: number) {}
  abstract volume(): number;
  describe(): string { return `${this.kind} of size ${this.size}: ${this.volume().toFixed(2)}`; }
}
class Cube extends Primitive {
  readonly kind = 'cube';
  constructor(size: number) { super(size); }
  volume(): number { return this.size ** 3; }
}
class Ball extends Primitive {
  kind = 'ball';
  constructor(r: number, private detail = 16) { super(r); }
  volume(): number { return (4 / 3) * Math.PI * this.size ** 3; }
  get segments(): number { return this.detail; }
}
const list: Primitive[] = [new Cube(2), new Ball(1)];
list.forEach((p) => console.log(p.describe()));
console.log((list[1] as Ball).segments, list[0] instanceof Primitive);
