// Getters and setters on classes, with backing fields and validation.
class Temperature {
  #celsius = 0;
  get fahrenheit() { return this.#celsius * 9 / 5 + 32; }
  set fahrenheit(f) { this.#celsius = (f - 32) * 5 / 9; }
  get celsius() { return this.#celsius; }
  set celsius(c) { this.#celsius = Math.max(-273.15, c); }
}
const t = new Temperature();
t.celsius = 100;
console.log(t.fahrenheit, t.celsius);
t.fahrenheit = 32;
console.log(t.celsius);
t.celsius = -500;
console.log(t.celsius.toFixed(2));
class Sized {
  constructor() { this._s = 1; }
  get size() { return this._s; }
  set size(v) { this._s = v * 2; }
}
const s = new Sized();
s.size += 1;
console.log(s.size);
