// Typed generators: Generator<T>, IterableIterator<T>, generic generators.
function* take<T>(items: Iterable<T>, n: number): Generator<T, void, unknown> {
  let i = 0;
  for (const item of items) {
    if (i++ >= n) return;
    yield item;
  }
}
function* naturals(): IterableIterator<number> { let n = 1; while (true) yield n++; }
console.log([...take(naturals(), 5)].join(' '));
class Ring {
  constructor(private readonly count: number, private readonly radius: number) {}
  *points(): Generator<[number, number]> {
    for (let i = 0; i < this.count; i++) {
      const a = (i / this.count) * Math.PI * 2;
      yield [Number((Math.cos(a) * this.radius).toFixed(3)), Number((Math.sin(a) * this.radius).toFixed(3))];
    }
  }
}
for (const [x, z] of new Ring(4, 2).points()) console.log(x, z);
