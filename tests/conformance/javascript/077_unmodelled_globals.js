// Standard globals the evaluator does not model are reported, never read as undefined.
console.log(typeof globalThis, typeof Symbol, typeof Promise);
