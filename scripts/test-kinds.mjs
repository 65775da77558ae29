// Which test files are unit tests and which are process tests, by a rule read from the files themselves
// so that no list has to be kept up to date. A test file is a process test when it, or a test helper it
// imports (relative imports followed through test/ and examples/, never into src/), imports
// `node:child_process` or `playwright-core`; or when it starts processes through the library (an exec
// credential plugin, say) and says so with a `// test-kind: process` line. End-to-end and soak tests,
// named `*.e2e.test.ts`, `*-e2e.test.ts` or `*-soak.test.ts`, run in process but for long on purpose,
// so they are left out of the unit tests too. Every other test file is a unit test. Invariant: the answer depends only on the files' text, and `npm run test:unit` runs unit
// tests under scripts/unit-guard.mjs, which fails any that starts a process after all.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { filesUnder } from './files-under.mjs';

/** Modules whose import makes a test a process test: they start programs or browsers. */
export const PROCESS_MODULES = ['node:child_process', 'child_process', 'playwright-core'];
/** File names of tests that run long on purpose: whole-lifecycle end-to-end tests and soak tests. */
export const LONG_RUNNING_NAME = /[.-](e2e|soak)\.test\.ts$/;
/** The line a test file carries when it starts processes in a way its imports do not show. */
export const PROCESS_MARKER = '// test-kind: process';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** Every test file under test/ and examples/, relative to `root`, sorted. */
export function testFiles(root = process.cwd()) {
  return ['test', 'examples']
    .filter((d) => existsSync(join(root, d)))
    .flatMap((d) => filesUnder(join(root, d), (name) => name.endsWith('.test.ts')))
    .map((f) => relative(root, f))
    .sort();
}

/**
 * Why `file` (relative to `root`) is a process test: the chain of imports that reaches a process
 * module, or the marker; undefined when it is a unit test.
 */
export function processReason(file, root = process.cwd()) {
  const text = readFileSync(join(root, file), 'utf8');
  if (text.split('\n').some((line) => line.trim() === PROCESS_MARKER)) return `${file} carries "${PROCESS_MARKER}"`;
  return importChain(file, root, new Set());
}

function importChain(file, root, seen) {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const text = readFileSync(join(root, file), 'utf8');
  for (const [, spec] of text.matchAll(SPECIFIER)) {
    if (PROCESS_MODULES.includes(spec)) return `${file} imports ${spec}`;
    if (!spec.startsWith('.')) continue;
    const target = localSource(join(dirname(file), spec), root);
    if (target === undefined) continue;
    const chain = importChain(target, root, seen);
    if (chain !== undefined) return `${file} → ${chain}`;
  }
  return undefined;
}

/** The TypeScript source a relative specifier names (`./x.js` is written for `./x.ts`), when it is a test or example helper. */
function localSource(path, root) {
  if (!/^(test|examples)\//.test(path)) return undefined;
  const base = path.replace(/\.(m?js|ts)$/, '');
  return ['.ts', '.mts', '.js', '.mjs', '/index.ts'].map((ext) => base + ext).find((p) => existsSync(resolve(root, p)));
}

/** The unit test files under `root`: neither process tests nor named as long-running. */
export function unitTestFiles(root = process.cwd()) {
  return testFiles(root).filter((f) => !LONG_RUNNING_NAME.test(f) && processReason(f, root) === undefined);
}
