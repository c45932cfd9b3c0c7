// Type annotations are erased: typed variables, parameters, returns, generics, unions.
const count: number = 3;
let label: string | null = null;
const pair: [number, string] = [1, 'one'];
type Size = { w: number; h?: number };
function area({ w, h = w }: Size): number { return w * h; }
function first<T>(xs: T[]): T | undefined { return xs[0]; }
function optional(a: number, b?: number): string { return `${a} ${b}`; }
const arrow = <T,>(x: T): T => x;
label = `n=${count}`;
console.log(label, pair[1], area({ w: 2 }), area({ w: 2, h: 5 }), first([9, 8]), first<string>([]));
console.log(optional(1), optional(1, 2), arrow<number>(7));
let maybe: number | undefined;
console.log(maybe, typeof maybe);
const fns: Array<(x: number) => number> = [(x) => x + 1, (x) => x * 2];
console.log(fns.map((f) => f(10)).join());
