// Interfaces and classes implementing them; objects typed by interfaces.
interface Shape { name: string; area(): number; readonly sides?: number }
interface Named { readonly id: string }
class Circle implements Shape, Named {
  readonly id = 'c1';
  name = 'circle';
  constructor(private r: number) {}
  area(): number { return Math.PI * this.r ** 2; }
}
const square: Shape = { name: 'square', area: () => 4, sides: 4 };
const shapes: Shape[] = [new Circle(1), square];
for (const s of shapes) console.log(s.name, s.area().toFixed(3), s.sides ?? 'n/a');
interface Extended extends Shape { color: string }
const e: Extended = { name: 'e', area() { return 1; }, color: 'red' };
console.log(e.color, (shapes[0] as Circle).id);
