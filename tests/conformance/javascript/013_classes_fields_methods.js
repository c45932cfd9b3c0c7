// Class fields (initialised before the constructor body), methods, this, toString.
class Box {
  width = 1;
  depth = this.width * 2;
  label;
  constructor(height) {
    this.height = height ?? this.width;
  }
  volume() { return this.width * this.height * this.depth; }
  toString() { return `Box(${this.width}x${this.height}x${this.depth})`; }
}
const b = new Box(3);
console.log(b.volume(), String(b), `${b}`, b + '!');
b.width = 4;
console.log(b.volume(), b.label, typeof b.volume, b instanceof Box);
console.log(JSON.stringify(b), Object.keys(b).join(','));
