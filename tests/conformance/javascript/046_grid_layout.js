// Positions from nested loops and data tables, as scene code lays objects out.
const spacing = 1.5, rows = 3, cols = 4;
const placed = [];
for (let r = 0; r < rows; r++) {
  for (let c = 0; c < cols; c++) {
    const x = (c - (cols - 1) / 2) * spacing;
    const z = (r - (rows - 1) / 2) * spacing;
    if ((r + c) % 2 === 0) placed.push([x, 0.5, z]);
  }
}
console.log(placed.length, placed.map((p) => p.join('/')).join(' '));
const ring = Array.from({ length: 6 }, (_, i) => {
  const a = (i / 6) * Math.PI * 2;
  return [Math.cos(a) * 3, Math.sin(a) * 3].map((v) => Number(v.toFixed(4)));
});
console.log(JSON.stringify(ring));
const table = [{ shape: 'box', h: 2 }, { shape: 'cylinder', h: 1 }, { shape: 'cone' }];
let y = 0;
for (const { shape, h = 1.5 } of table) { y += h / 2; console.log(shape, y); y += h / 2; }
