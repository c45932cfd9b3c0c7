// Static fields and methods: shared state, this in static methods, static inheritance.
class Registry {
  static count = 0;
  static names = [];
  static prefix = 'obj';
  static register(name) {
    this.count++;
    Registry.names.push(`${this.prefix}-${name}`);
    return this.count;
  }
  static get last() { return this.names[this.names.length - 1]; }
}
Registry.register('a');
Registry.register('b');
console.log(Registry.count, Registry.names.join(' '), Registry.last);
class Sub extends Registry {
  static prefix = 'sub';
}
console.log(Sub.register('c'), Sub.count, Registry.count, Registry.last);
class Counter { static #made = 0; constructor() { Counter.#made++; } static made() { return Counter.#made; } }
new Counter(); new Counter();
console.log(Counter.made());
