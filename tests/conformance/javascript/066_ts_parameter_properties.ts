// Parameter properties and the order of field initialisers.
class Base {
  tag = 'base';
  constructor(public readonly id: number) {}
}
class Item extends Base {
  area: number;
  doubled = this.id * 2;
  constructor(id: number, private w: number, protected h = 2, public name?: string) {
    super(id);
    this.area = w * h;
  }
  info(): string { return `${this.id} ${this.tag} ${this.w}x${this.h}=${this.area} ${this.doubled} ${this.name}`; }
}
console.log(new Item(1, 3).info(), new Item(2, 4, 5, 'named').info());
console.log(Object.keys(new Item(3, 1)).join(','));
