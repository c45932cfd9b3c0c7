// String enums: no reverse mapping; values iterate in declaration order.
enum Shape { Box = 'box', Ball = 'sphere', Cone = 'cone' }
console.log(Shape.Ball, Object.values(Shape).join(), Object.keys(Shape).join());
console.log(Shape['Box'], (Shape as any)['box']);
enum Mixed { No = 0, Yes = 'yes' }
console.log(Mixed.No, Mixed.Yes, Mixed[0], Object.keys(Mixed).join());
const all = Object.values(Shape).filter((v) => v.length > 3);
console.log(all.join('|'));
function make(s: Shape): string {
  switch (s) {
    case Shape.Box: return 'BoxGeometry';
    case Shape.Ball: return 'SphereGeometry';
    default: return 'ConeGeometry';
  }
}
console.log([Shape.Box, Shape.Ball, Shape.Cone].map(make).join(' '));
