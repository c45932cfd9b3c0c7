// Generic classes and functions; overload signatures have no body.
class Stack<T> {
  private items: T[] = [];
  push(item: T): this { this.items.push(item); return this; }
  pop(): T | undefined { return this.items.pop(); }
  get size(): number { return this.items.length; }
}
const st = new Stack<number>().push(1).push(2).push(3);
console.log(st.pop(), st.size);
function pick(x: number): string;
function pick(x: string): number;
function pick(x: number | string): number | string {
  return typeof x === 'number' ? String(x) : x.length;
}
console.log(pick(42), pick('four'));
function mapValues<K extends string, V, R>(obj: Record<K, V>, f: (v: V) => R): Record<K, R> {
  const out = {} as Record<K, R>;
  for (const k in obj) out[k] = f(obj[k]);
  return out;
}
console.log(JSON.stringify(mapValues({ a: 1, b: 2 }, (v) => v * 10)));
