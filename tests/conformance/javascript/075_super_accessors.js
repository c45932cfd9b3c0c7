// super reaches the base class's getters and methods.
class Part {
  constructor(size) { this.size = size; }
  get volume() { return this.size ** 3; }
  describe() { return `part ${this.size}`; }
}
class Hollow extends Part {
  get volume() { return super.volume - (this.size / 2) ** 3; }
  describe() { return `${super.describe()} (hollow)`; }
}
const h = new Hollow(2);
console.log(h.volume, h.describe(), new Part(2).volume);
