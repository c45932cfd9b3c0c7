// Number.prototype.toFixed rounds the exact binary value; a tie (exactly half) goes up.
const cases = [[1.005, 2], [1.45, 1], [2.5, 0], [0.5, 0], [1.5, 0], [-2.5, 0], [0.125, 2],
  [0.375, 2], [1.255, 2], [8.345, 2], [-0, 2], [-0.0001, 2], [123.456, 0], [1e21, 2],
  [0, 3], [9.995, 2], [99.995, 2], [0.1, 20], [1.23e-10, 5], [-1.5, 0], [42, 1]];
for (const [v, d] of cases) console.log(`${v}.toFixed(${d}) = ${v.toFixed(d)}`);
console.log((3.14159).toFixed(), (2.675).toFixed(2), Math.PI.toFixed(4));
