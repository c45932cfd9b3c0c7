// The three.js harness's guard, loaded before it (`node --import node_guard.mjs`) inside the
// audit's sandbox. It replaces node's dangerous entry points with functions that refuse and
// report: every `child_process` function, `fs` writes outside /tmp and reads outside the
// engine's own files (/sb/engine) and /tmp, sockets (`net`, `tls`, `dgram`, `http`, `https`,
// `fetch`), worker threads and native addons. `syncBuiltinESMExports` carries the replacements
// into the ESM exports too, so `import { execSync } from 'node:child_process'` gets them.
//
// Each refusal is written to stderr as one line, "\0sandbox-blocked {json}", which the audit
// reads (audit/three_audit.py); the error is thrown to the reply's code. Node's permission model
// (--experimental-permission, which the audit also turns on) refuses the same at a lower level,
// and the sandbox's namespaces, seccomp filter and rlimits hold below that.

import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const READABLE = ['/sb/engine/', '/tmp/', '/dev/'];
const WRITABLE = ['/tmp/'];
let recorded = 0;

function report(what, detail) {
  recorded += 1;
  if (recorded > 20) return;
  const line = JSON.stringify({ what, detail: String(detail).slice(0, 200), stopped_by: 'node guard' });
  process.stderr.write(`\u0000sandbox-blocked ${line}\n`);
}

function refuse(what, detail) {
  report(what, detail);
  const error = new Error(`sandbox: not allowed to ${what} (${detail})`);
  error.code = 'ERR_SANDBOX';
  return error;
}

function refusing(what, name) {
  return function refused(...args) {
    throw refuse(what, `${name}(${args.map((a) => String(a)).join(', ').slice(0, 120)})`);
  };
}

function where(target) {
  if (typeof target === 'number') return null;
  if (target instanceof URL) return target.protocol === 'file:' ? path.resolve(decodeURIComponent(target.pathname)) : String(target);
  return path.resolve(String(target));
}

function under(resolved, roots) {
  return roots.some((root) => resolved === root.slice(0, -1) || resolved.startsWith(root));
}

// --- processes ---------------------------------------------------------------------------------
const childProcess = require('node:child_process');
for (const name of Object.keys(childProcess)) {
  if (typeof childProcess[name] === 'function') childProcess[name] = refusing('spawn a process', `child_process.${name}`);
}

// --- files -------------------------------------------------------------------------------------
const fs = require('node:fs');
const READS = ['readFile', 'readFileSync', 'readdir', 'readdirSync', 'createReadStream', 'opendir', 'opendirSync', 'readlink', 'readlinkSync'];
const WRITES = [
  'writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'mkdir', 'mkdirSync', 'mkdtemp', 'mkdtempSync',
  'rm', 'rmSync', 'rmdir', 'rmdirSync', 'unlink', 'unlinkSync', 'rename', 'renameSync', 'copyFile', 'copyFileSync',
  'cp', 'cpSync', 'symlink', 'symlinkSync', 'link', 'linkSync', 'chmod', 'chmodSync', 'chown', 'chownSync',
  'truncate', 'truncateSync', 'utimes', 'utimesSync', 'createWriteStream',
];

function guarded(target, name, roots, what) {
  const real = target[name];
  if (typeof real !== 'function') return;
  target[name] = function checked(file, ...rest) {
    const resolved = where(file);
    if (resolved !== null && !under(resolved, roots)) throw refuse(what, `fs.${name}(${resolved})`);
    return real.call(this, file, ...rest);
  };
}

function writing(flags) {
  return typeof flags === 'string' ? /[wa+]/.test(flags) : typeof flags === 'number' && (flags & 3) !== 0;
}

for (const target of [fs, fs.promises]) {
  for (const name of READS) guarded(target, name, READABLE, 'read a file outside the sandbox');
  for (const name of WRITES) guarded(target, name, WRITABLE, 'write a file outside /tmp');
  for (const name of ['open', 'openSync']) {
    const real = target[name];
    if (typeof real !== 'function') continue;
    target[name] = function opened(file, flags, ...rest) {
      const resolved = where(file);
      const roots = writing(flags) ? WRITABLE : READABLE;
      if (resolved !== null && !under(resolved, roots)) {
        throw refuse(writing(flags) ? 'write a file outside /tmp' : 'read a file outside the sandbox', `fs.${name}(${resolved})`);
      }
      return real.call(this, file, flags, ...rest);
    };
  }
}

// --- network, threads, addons ------------------------------------------------------------------
const net = require('node:net');
for (const name of ['connect', 'createConnection', 'createServer']) net[name] = refusing('open a socket', `net.${name}`);
net.Socket.prototype.connect = refusing('open a socket', 'net.Socket.connect');
const tls = require('node:tls');
for (const name of ['connect', 'createServer']) tls[name] = refusing('open a socket', `tls.${name}`);
require('node:dgram').createSocket = refusing('open a socket', 'dgram.createSocket');
for (const module of ['node:http', 'node:https']) {
  const http = require(module);
  for (const name of ['request', 'get', 'createServer']) http[name] = refusing('open a connection', `${module.slice(5)}.${name}`);
}
globalThis.fetch = refusing('open a connection', 'fetch');
if (globalThis.WebSocket) globalThis.WebSocket = refusing('open a connection', 'WebSocket');
require('node:worker_threads').Worker = refusing('start a worker thread', 'worker_threads.Worker');
process.dlopen = refusing('load a native addon', 'process.dlopen');
process.binding = refusing("reach node's internals", 'process.binding');
process.kill = refusing('signal a process', 'process.kill');

syncBuiltinESMExports();
