// Generator methods in classes and objects, used as scene code walks a layout.
class Grid {
  constructor(cols, rows, step) { this.cols = cols; this.rows = rows; this.step = step; }
  *cells() {
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) yield { x: c * this.step, z: r * this.step };
    }
  }
  static *range(a, b) { while (a < b) yield a++; }
}
const grid = new Grid(3, 2, 1.5);
console.log([...grid.cells()].map(({ x, z }) => `${x}/${z}`).join(' '));
console.log([...Grid.range(2, 6)].join());
const shapes = { *[Symbol.iterator]() { yield 'box'; yield 'cone'; } };
const named = { *kinds() { yield* ['sphere', 'torus']; } };
console.log([...named.kinds()].join('+'));
const squares = (function* () { for (const n of [1, 2, 3]) yield n * n; })();
console.log(Math.max(...squares), typeof squares);
