// Optional chaining: members, indexes, calls, and the short-circuit of the whole chain.
const scene = { camera: { position: { z: 5 } }, items: [{ name: 'a' }], fn: () => 'called' };
const empty = null;
console.log(scene?.camera?.position?.z, scene.light?.intensity, empty?.camera);
console.log(scene.items?.[0]?.name, scene.items?.[3]?.name, empty?.[0]);
console.log(scene.fn?.(), scene.missing?.(), empty?.fn());
console.log(empty?.a.b.c, scene.light?.color.r, (scene.light?.color)?.r);
let calls = 0;
const count = () => ++calls;
empty?.[count()];
console.log(calls, scene.camera?.['position'].z);
