// Run a three.js reply's code in node with the real `three` package and report every mesh
// three built.
//
//   node audit/three_harness.mjs < code.js > result.json
//
// The browser around the code is stubbed: `window`, `document` (elements, canvas), the
// WebGLRenderer (it records which scenes are rendered), add-ons (OrbitControls, loaders),
// `requestAnimationFrame` and `setInterval` (never call back: an animation never starts),
// `setTimeout` and page `load` handlers (run once after the script, as a browser would).
// ES-module code (imports of three from npm or a CDN, from three/addons) runs as a strict
// async function with its imports bound to the stubs; other code runs as a classic script.
// An HTML page runs its inline scripts. TypeScript runs as the TypeScript compiler (npm
// `typescript`, pinned beside three) transpiles it. Code cut off mid-statement cannot compile as a whole:
// the harness runs the longest prefix of whole lines that compiles, and says how many lines
// it dropped. Like the parser, it lets a reply that forgot its imports use three's names.
//
// Per mesh (scene.traverse order, rendered scenes first, else every scene created): geometry
// type and parameters, matrixWorld, the affine taking a fresh geometry of those parameters
// onto the mesh's actual vertices (geometry.rotateX & co.), the material's colour (linear
// working space and getHex() sRGB) and the precise world AABB of the vertices; for a geometry
// without parameters (a BufferGeometry the code filled), its vertex positions.

import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import * as THREE_MODULE from 'three';

const source = readFileSync(0, 'utf8');
// The reply's own logging goes to stderr: stdout carries only the report.
for (const level of ['log', 'info', 'debug', 'table', 'dir']) {
  console[level] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n');
}
const created = [];
const rendered = [];
const deferred = [];
const errors = [];

// --- the browser -----------------------------------------------------------------------------
function inert(name) {
  const target = function () {};
  return new Proxy(target, {
    get(t, prop) {
      if (prop === Symbol.toPrimitive) return () => 0;
      if (prop === 'then') return undefined;
      if (prop in t) return t[prop];
      return inert(`${name}.${String(prop)}`);
    },
    set(t, prop, value) { t[prop] = value; return true; },
    apply() { return inert(`${name}()`); },
    construct() { return inert(`new ${name}`); },
  });
}

function element(tag = 'div') {
  const el = {
    tagName: String(tag).toUpperCase(),
    style: {},
    width: 800,
    height: 600,
    clientWidth: 800,
    clientHeight: 600,
    children: [],
    appendChild(child) { this.children.push(child); return child; },
    removeChild(child) { return child; },
    append() {},
    setAttribute() {},
    addEventListener() {},
    removeEventListener() {},
    getContext() { return null; },
    getBoundingClientRect() { return { left: 0, top: 0, width: 800, height: 600, right: 800, bottom: 600 }; },
    setPointerCapture() {},
    releasePointerCapture() {},
    requestPointerLock() {},
    focus() {},
    classList: { add() {}, remove() {}, toggle() {} },
  };
  return el;
}

const body = element('body');
const listen = (type, fn) => {
  if (type === 'load' || type === 'DOMContentLoaded') deferred.push(fn);
};
globalThis.window = globalThis;
globalThis.self = globalThis;
globalThis.innerWidth = 800;
globalThis.innerHeight = 600;
globalThis.devicePixelRatio = 1;
globalThis.addEventListener = listen;
globalThis.removeEventListener = () => {};
globalThis.document = {
  body,
  documentElement: body,
  head: element('head'),
  createElement: (tag) => element(tag),
  createElementNS: (_ns, tag) => element(tag),
  getElementById: () => element(),
  querySelector: () => element(),
  querySelectorAll: () => [],
  addEventListener: listen,
  removeEventListener: () => {},
};
globalThis.requestAnimationFrame = () => 0;
globalThis.cancelAnimationFrame = () => {};
globalThis.setTimeout = (fn) => { deferred.push(fn); return 0; };
globalThis.setInterval = () => 0;
globalThis.clearTimeout = () => {};
globalThis.clearInterval = () => {};

// --- three with a stub renderer and tracked scenes -------------------------------------------
class StubRenderer {
  constructor() {
    this.domElement = element('canvas');
    this.shadowMap = { enabled: false, type: 0 };
    this.xr = { enabled: false };
    this.info = {};
    return new Proxy(this, {
      get(t, prop) {
        if (prop in t) return t[prop];
        return () => {};
      },
    });
  }
  render(scene) { if (scene && scene.isObject3D && !rendered.includes(scene)) rendered.push(scene); }
  setAnimationLoop() {}
  setSize() {}
  setPixelRatio() {}
  setClearColor() {}
  getPixelRatio() { return 1; }
  getSize(target) { return target ? target.set(800, 600) : { width: 800, height: 600 }; }
  dispose() {}
}

class TrackedScene extends THREE_MODULE.Scene {
  constructor(...args) { super(...args); created.push(this); }
}

// Names of three before r125 that models still write, defined as three's own Three.Legacy.js
// defined them (r124: `export { BoxGeometry as CubeGeometry }`, `export { MathUtils as Math }`,
// `applyMatrix(m) { return this.applyMatrix4(m); }` on Object3D and BufferGeometry; r125-r144:
// each `XBufferGeometry` a subclass of `XGeometry` with the same constructor).
const LEGACY = { CubeGeometry: THREE_MODULE.BoxGeometry, Math: THREE_MODULE.MathUtils };
for (const [name, value] of Object.entries(THREE_MODULE)) {
  if (/^[A-Z]\w*Geometry$/.test(name) && name !== 'BufferGeometry' && !name.endsWith('BufferGeometry')) {
    LEGACY[name.replace(/Geometry$/, 'BufferGeometry')] = value;
  }
}
for (const base of [THREE_MODULE.Object3D, THREE_MODULE.BufferGeometry]) {
  if (!base.prototype.applyMatrix) base.prototype.applyMatrix = function (matrix) { return this.applyMatrix4(matrix); };
}

const THREE = { ...LEGACY, ...THREE_MODULE, WebGLRenderer: StubRenderer, WebGPURenderer: StubRenderer, Scene: TrackedScene };

function addon(name) {
  return class {
    constructor() {
      this.target = new THREE_MODULE.Vector3();
      this.enabled = true;
      this.object = arguments[0];
      return new Proxy(this, {
        get(t, prop) {
          if (prop in t) return t[prop];
          return inert(`${name}.${String(prop)}`);
        },
      });
    }
  };
}
const ADDONS = Object.fromEntries(
  ['OrbitControls', 'TrackballControls', 'FlyControls', 'PointerLockControls', 'TransformControls', 'MapControls', 'GLTFLoader', 'OBJLoader', 'FontLoader', 'TextGeometry', 'EffectComposer', 'RenderPass', 'UnrealBloomPass', 'Stats', 'GUI'].map((n) => [n, addon(n)]),
);
globalThis.THREE = { ...THREE, ...ADDONS };
for (const [name, value] of Object.entries({ ...THREE, ...ADDONS })) {
  if (!(name in globalThis)) globalThis[name] = value;
}
globalThis.__THREE__ = THREE;
globalThis.__ADDONS__ = ADDONS;

// --- the code ---------------------------------------------------------------------------------
function inlineScripts(text) {
  if (!/<script\b/i.test(text)) return null;
  const scripts = [];
  let module = false;
  const open = /<script\b([^>]*)>/gi;
  let match;
  while ((match = open.exec(text)) !== null) {
    const attrs = match[1];
    const close = text.slice(open.lastIndex).search(/<\/script\s*>/i);
    const body = close < 0 ? text.slice(open.lastIndex) : text.slice(open.lastIndex, open.lastIndex + close);
    open.lastIndex = close < 0 ? text.length : open.lastIndex + close;
    const type = (/\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs) || [])[1] || 'text/javascript';
    if (/\bsrc\s*=/i.test(attrs)) continue;
    if (!['module', 'text/javascript', 'application/javascript'].includes(type.toLowerCase())) continue;
    if (type.toLowerCase() === 'module') module = true;
    scripts.push(body);
  }
  return { code: scripts.join('\n'), module };
}

function isThree(spec) {
  return /(^|[/@])three(@[^/]*)?(\/build\/three(\.module)?(\.min)?\.js|\/src\/Three(\.js)?|\/?$)|three\.module(\.min)?\.js$|^three$/i.test(spec.trim());
}

function bindings(clause, from) {
  const parts = [];
  let rest = clause.trim();
  const namespace = /\*\s+as\s+([\w$]+)/.exec(rest);
  if (namespace) return `const ${namespace[1]} = ${from};`;
  const named = /\{([^}]*)\}/.exec(rest);
  if (named) {
    const specs = named[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
      const [imported, local] = s.split(/\s+as\s+/);
      return local ? `${imported.trim()}: ${local.trim()}` : imported.trim();
    });
    parts.push(`const { ${specs.join(', ')} } = ${from};`);
    rest = rest.replace(named[0], '');
  }
  const fallback = /^([\w$]+)/.exec(rest.replace(/^,/, '').trim());
  if (fallback) parts.push(`const ${fallback[1]} = ${from};`);
  return parts.join(' ');
}

function rewriteImports(code) {
  let found = false;
  const rewritten = code.replace(/^[ \t]*import\s+([\s\S]*?)\s+from\s+(['"])([^'"]+)\2\s*;?/gm, (_all, clause, _q, spec) => {
    found = true;
    const from = isThree(spec) ? 'globalThis.__THREE__' : 'globalThis.__ADDONS__';
    return bindings(clause, from);
  }).replace(/^[ \t]*import\s+(['"])[^'"]+\1\s*;?/gm, () => { found = true; return ''; })
    .replace(/^[ \t]*export\s+default\s+/gm, () => { found = true; return ''; })
    .replace(/^[ \t]*export\s+(?=(const|let|var|function|class|async)\b)/gm, () => { found = true; return ''; });
  return { code: rewritten, module: found };
}

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;

function compile(code, module) {
  if (module) return new AsyncFunction(`"use strict";\n${code}`);
  const script = new vm.Script(code, { filename: 'reply.js' });
  return () => script.runInThisContext();
}

let code = source;
let pageModule = false;
const page = inlineScripts(source);
if (page !== null) {
  code = page.code;
  pageModule = page.module;
}

// TypeScript runs as the TypeScript compiler turns it into JavaScript. The compiler is loaded
// only for code that does not compile as JavaScript, and used only when it finds no syntax
// error in it (the parser likewise reads TypeScript only when it parses with fewer errors).
let compiler;
async function asTypeScript(text) {
  if (compiler === undefined) compiler = await import('typescript').then((m) => m.default, () => null);
  if (!compiler) return null;
  const out = compiler.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { target: compiler.ScriptTarget.ES2022, module: compiler.ModuleKind.ESNext },
  });
  return out.diagnostics.length === 0 ? out.outputText : null;
}

function prepared(text) {
  const rewritten = rewriteImports(text);
  const module = pageModule || rewritten.module || /\bawait\b/.test(rewritten.code) && !/\basync\b/.test(rewritten.code);
  return compile(rewritten.code, module);
}

let lines = code.split('\n');
let dropped = 0;
let runnable = null;
let typescript = false;
while (lines.length > 0) {
  const attempt = lines.join('\n');
  try {
    runnable = prepared(attempt);
    break;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  const javascript = await asTypeScript(attempt);
  if (javascript !== null) {
    runnable = prepared(javascript);
    typescript = true;
    break;
  }
  lines = lines.slice(0, -1);
  dropped += 1;
}

try {
  if (runnable) await runnable();
  if (typeof globalThis.onload === 'function') deferred.push(globalThis.onload);
  for (let i = 0; i < deferred.length && i < 64; i += 1) {
    await deferred[i]({ type: 'load' });
  }
} catch (error) {
  errors.push(String(error && error.stack ? error.stack.split('\n').slice(0, 3).join(' | ') : error));
}

// --- what three built -------------------------------------------------------------------------
function fittedAffine(mesh) {
  const geometry = mesh.geometry;
  const Ctor = THREE_MODULE[geometry.type];
  if (!Ctor || !geometry.parameters || !geometry.attributes.position) return null;
  const fresh = new Ctor(...Object.values(geometry.parameters));
  const a = fresh.attributes.position;
  const b = geometry.attributes.position;
  if (a.count !== b.count) return { error: 'vertex counts differ' };
  const p = (attr, i) => new THREE_MODULE.Vector3().fromBufferAttribute(attr, i);
  const chosen = [0];
  const p0 = p(a, 0);
  let best = 0, index = -1;
  for (let i = 0; i < a.count; i += 1) { const d = p(a, i).distanceTo(p0); if (d > best) { best = d; index = i; } }
  if (index < 0) return null;
  chosen.push(index);
  const p1 = p(a, index);
  const dir = p1.clone().sub(p0).normalize();
  best = 0; index = -1;
  for (let i = 0; i < a.count; i += 1) {
    const v = p(a, i).sub(p0);
    const d = v.clone().sub(dir.clone().multiplyScalar(v.dot(dir))).length();
    if (d > best) { best = d; index = i; }
  }
  if (index < 0 || best < 1e-9) return null;
  chosen.push(index);
  const normal = p1.clone().sub(p0).cross(p(a, index).sub(p0)).normalize();
  best = 0; index = -1;
  for (let i = 0; i < a.count; i += 1) { const d = Math.abs(p(a, i).sub(p0).dot(normal)); if (d > best) { best = d; index = i; } }
  if (index < 0 || best < 1e-9) return null;
  chosen.push(index);
  const columns = (attr) => {
    const m = new THREE_MODULE.Matrix4();
    const v = chosen.map((i) => p(attr, i));
    m.set(v[0].x, v[1].x, v[2].x, v[3].x, v[0].y, v[1].y, v[2].y, v[3].y, v[0].z, v[1].z, v[2].z, v[3].z, 1, 1, 1, 1);
    return m;
  };
  const affine = columns(b).multiply(columns(a).invert());
  let error = 0;
  for (let i = 0; i < a.count; i += 1) error = Math.max(error, p(a, i).applyMatrix4(affine).distanceTo(p(b, i)));
  return { elements: affine.elements, error };
}

const scenes = rendered.length > 0 ? rendered : created;
const meshes = [];
const seen = new Set();
for (const scene of scenes) {
  scene.updateMatrixWorld(true);
  scene.traverse((object) => {
    if (seen.has(object)) return;
    seen.add(object);
    if (!object.isMesh) return;
    const material = Array.isArray(object.material) ? object.material[0] : object.material;
    const color = material && material.color && material.color.isColor ? material.color : null;
    const entry = (matrixWorld, box, tint, instance) => {
      const linear = color ? color.clone().multiply(tint) : null;
      meshes.push({
        name: object.name,
        instanced: Boolean(object.isInstancedMesh),
        instance,
        geometryType: object.geometry.type,
        parameters: object.geometry.parameters || null,
        matrixWorld: matrixWorld.elements,
        geometryMatrix: fittedAffine(object),
        materialType: material ? material.type : null,
        color: linear ? [linear.r, linear.g, linear.b] : null,
        hex: linear ? linear.getHex() : null,
        aabb: box.isEmpty() ? null : [box.min.toArray(), box.max.toArray()],
        // A geometry without parameters (a BufferGeometry the code filled) is read from its
        // vertices: report them, in the geometry's own frame.
        positions: !object.geometry.parameters && object.geometry.attributes.position
          ? Array.from(object.geometry.attributes.position.array)
          : null,
      });
    };
    if (!object.isInstancedMesh) {
      entry(object.matrixWorld, new THREE_MODULE.Box3().setFromObject(object, true), new THREE_MODULE.Color(1, 1, 1), null);
      return;
    }
    // Each drawn instance as a mesh of its own: world = matrixWorld * instance matrix, its
    // colour the material's times the instance's (three's shader), its box from the vertices.
    const position = object.geometry.attributes.position;
    for (let i = 0; i < object.count; i += 1) {
      const local = new THREE_MODULE.Matrix4();
      object.getMatrixAt(i, local);
      const world = object.matrixWorld.clone().multiply(local);
      const box = new THREE_MODULE.Box3();
      const point = new THREE_MODULE.Vector3();
      for (let k = 0; k < position.count; k += 1) box.expandByPoint(point.fromBufferAttribute(position, k).applyMatrix4(world));
      const tint = new THREE_MODULE.Color(1, 1, 1);
      if (object.instanceColor) object.getColorAt(i, tint);
      entry(world, box, tint, i);
    }
  });
}
process.stdout.write(JSON.stringify({ meshes, scenes: scenes.length, rendered: rendered.length, dropped, typescript, errors }) + '\n');
