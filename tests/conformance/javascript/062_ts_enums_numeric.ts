// Numeric enums: auto-increment, explicit and computed values, reverse mapping.
enum Dir { Up, Down, Left = 10, Right }
console.log(Dir.Up, Dir.Down, Dir.Left, Dir.Right, Dir[0], Dir[11], Dir[Dir.Left]);
enum Flags { None = 0, A = 1 << 0, B = 1 << 1, AB = A | B, Neg = -1, After }
console.log(Flags.AB, Flags[3], Flags.Neg, Flags.After, Flags[-1], Flags[0]);
enum Computed { Len = 'abc'.length, Next, Twice = Len * 2 }
console.log(Computed.Len, Computed.Next, Computed.Twice, Computed[3]);
console.log(Object.keys(Dir).join(','));
const d: Dir = Dir.Right;
switch (d) {
  case Dir.Left: console.log('left'); break;
  case Dir.Right: console.log('right'); break;
}
function turn(x: Dir): string { return Dir[x]; }
console.log(turn(Dir.Down), typeof Dir, typeof Dir.Up);
