// console.log of values as node's util.inspect shows them.
console.log(-0, [-0], 1e21, 0.1 + 0.2, [1, 2, 3], ['a', "it's"], { a: 1, 'b-c': [true, null] });
console.log([1, 2, 3, 4, 5, 6, 7], { nested: { deeper: { deepest: { gone: 1 } } } });
console.log(Array.from({ length: 26 }, (_, i) => i * 1.5));
class Foo { constructor() { this.x = 1; this.list = ['q']; } }
console.log(new Foo(), [new Foo()], {}, [], [[]], { 2: 'b', 1: 'a' });
console.log({ position: [1.5, 0, -2], rotation: [0, Math.PI / 4, 0], scale: [1, 1, 1], name: 'a fairly long name here' });
