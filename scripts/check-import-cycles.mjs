// Fails when the relative imports of the TypeScript files under a folder (default src/) form a cycle.
// Type-only imports count: a cycle of types is still two files that cannot be understood apart.
// Every relative import must resolve to a file (`./x.js` is `./x.ts`); one that does not is an error,
// not a skipped edge. Usage: node scripts/check-import-cycles.mjs [folder]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { filesUnder } from './files-under.mjs';

const root = resolve(process.argv[2] ?? 'src');

/** Static `import … from`, `export … from` and bare `import '…'` statements, each at the start of a line. */
const IMPORT = /^[ \t]*(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const files = filesUnder(root, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
const edges = new Map();
const unresolved = [];
for (const file of files) {
  const targets = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = resolveImport(file, m[1]);
    if (target) targets.push(target);
    else unresolved.push(`${relative('.', file)}: cannot resolve ${m[1]}`);
  }
  edges.set(file, targets);
}
if (unresolved.length > 0) {
  console.error(`unresolved relative imports:\n  ${unresolved.join('\n  ')}`);
  process.exit(1);
}

// Depth-first search; a file met again while still on the path closes a cycle.
const DONE = 1;
const ON_PATH = 2;
const mark = new Map();
const path = [];
function visit(file) {
  mark.set(file, ON_PATH);
  path.push(file);
  for (const next of edges.get(file) ?? []) {
    const m = mark.get(next);
    if (m === ON_PATH) return [...path.slice(path.indexOf(next)), next];
    if (m === undefined) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
  }
  path.pop();
  mark.set(file, DONE);
  return undefined;
}
for (const file of files) {
  if (mark.has(file)) continue;
  const cycle = visit(file);
  if (cycle) {
    console.error(`import cycle: ${cycle.map((f) => relative('.', f)).join(' -> ')}`);
    process.exit(1);
  }
}
console.log(`no import cycle among ${files.length} files under ${relative('.', root) || '.'}`);
