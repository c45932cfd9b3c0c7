// Run the JavaScript/TypeScript conformance programs in node, all in one process (node's
// start-up costs more than most programs): each program in a fresh `vm` context whose
// `console.log` collects the lines node would print (util.format, as console.log formats).
// TypeScript is first transpiled with the pinned `typescript` package (`transpileModule`,
// the options the three.js engine harness uses).
//
//   node tests/conformance/javascript_runner.mjs < paths.json > outputs.json
//
// stdin: a JSON list of program paths; stdout: {path: {lines, error}}, where `error` is the
// program's uncaught exception (or a TypeScript syntax error), null when it ran to the end.

import { readFileSync } from 'node:fs';
import util from 'node:util';
import vm from 'node:vm';
import ts from 'typescript';

const paths = JSON.parse(readFileSync(0, 'utf8'));

function javascript(path, text) {
  if (!path.endsWith('.ts')) return text;
  const out = ts.transpileModule(text, {
    reportDiagnostics: true,
    fileName: path,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  if (out.diagnostics.length > 0) {
    const first = out.diagnostics[0];
    throw new SyntaxError(ts.flattenDiagnosticMessageText(first.messageText, '\n'));
  }
  return out.outputText;
}

const results = {};
for (const path of paths) {
  const lines = [];
  let error = null;
  const log = (...args) => { lines.push(...util.format(...args).split('\n')); };
  const context = vm.createContext({ console: { log, info: log, warn: log, error: log } });
  try {
    const code = javascript(path, readFileSync(path, 'utf8'));
    vm.runInContext(code, context, { filename: path, timeout: 5000 });
  } catch (caught) {
    error = String(caught && caught.stack ? caught.stack.split('\n')[0] : caught);
  }
  results[path] = { lines, error };
}
process.stdout.write(JSON.stringify(results));
