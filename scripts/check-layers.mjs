// Enforces the house rules of docs/architecture.md on every relative import of src/, test/ and
// examples/, and names the rule and the import that breaks one:
//   layer      a layer imports only the layers below it (the matrix in LAYERS);
//   face       another layer is entered only through its face, src/<layer>/index.ts, or its internal face,
//              src/<layer>/internal.ts (machinery shared between layers, left out of package.json's exports);
//   sibling    inside a layer, a sub-folder is entered only through its index.ts, never a private file,
//              and every sub-folder that is imported has one;
//   floor      inside the API server, a room imports only rooms on its own floor or below (FLOORS);
//   room-cycle no two rooms of the API server import each other, directly or round a loop;
//   public     a test or example imports src/ only through the layer faces, unless its first line is a
//              comment saying why it needs a private file (it contains the word "private").
// Known debts are listed in scripts/layers-baseline.txt; a violation not on that list fails, and so
// does a listed one that is gone (delete its line), so the list only shrinks.
// Usage: node scripts/check-layers.mjs [repo-root]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { filesUnder } from './files-under.mjs';

const repo = resolve(process.argv[2] ?? '.');
const ANY = '*';
/** What each layer of src/ may import (besides itself). */
export const LAYERS = {
  meta: [],
  workqueue: ['meta'],
  client: ['meta'],
  cache: ['meta', 'client'],
  controller: ['meta', 'workqueue', 'client', 'cache'],
  manager: ['meta', 'workqueue', 'client', 'cache', 'controller'],
  apiserver: ['meta'],
  schema: ['meta'],
  webhook: ['meta', 'manager'],
  multicluster: ['meta', 'workqueue', 'client', 'cache', 'controller', 'manager'],
  testing: ANY,
  cli: ANY,
};
/** The API server's floors, ground first: a room (a folder or a top-level file of src/apiserver) imports its own floor or lower. */
export const FLOORS = [
  ['ground', 'versions'],
  [
    'go-json-kind',
    'nesting',
    'cel',
    'admission-cel',
    'patch',
    'selectors',
    'table',
    'protobuf',
    'builtin-schemas',
    'schema',
    'openapi',
    'served-resource',
    'apply',
    'wire',
    'authentication',
    'webhook-call',
  ],
  ['storage', 'watch-hub', 'authorization'],
  ['registry'],
  ['admission', 'conversion'],
  ['handlers', 'controllers', 'discovery', 'openapi-routes'],
  ['http', 'api-server', 'start', 'index', 'internal'],
];
const floorOf = new Map(FLOORS.flatMap((rooms, i) => rooms.map((r) => [r, i])));

const IMPORT = /^[ \t]*(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const rel = (p) => relative(repo, p).split(sep).join('/');
function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const c of [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

const violations = [];
const flag = (rule, file, target, why) => violations.push(`${rule}: ${rel(file)} imports ${rel(target)}${why ? ` (${why})` : ''}`);
const src = join(repo, 'src');
const layerOf = (p) => (p.startsWith(src + sep) ? relative(src, p).split(sep)[0] : undefined);
const roomOf = (p) => {
  const r = relative(join(src, 'apiserver'), p).split(sep);
  return r.length > 1 ? r[0] : r[0].replace(/\.ts$/, '');
};
const roomEdges = new Map();

function checkSrc(file, target) {
  const from = layerOf(file);
  const to = layerOf(target);
  if (!to) return;
  if (from !== to) {
    const allowed = LAYERS[from];
    if (allowed === undefined) flag('layer', file, target, `src/${from} is not in the layer matrix`);
    else if (allowed !== ANY && !allowed.includes(to))
      flag('layer', file, target, `${from} may import ${allowed.join(', ') || 'nothing of ours'}`);
    if (target !== join(src, to, 'index.ts') && target !== join(src, to, 'internal.ts'))
      flag('face', file, target, `enter ${to} through src/${to}/index.ts (or internal.ts)`);
    return;
  }
  // Same layer: a folder other than the importer's own or its ancestors is entered through its index.ts.
  const fromDir = dirname(file).split(sep);
  const toDir = dirname(target).split(sep);
  let i = 0;
  while (i < fromDir.length && i < toDir.length && fromDir[i] === toDir[i]) i++;
  if (i < toDir.length) {
    const face = join(toDir.slice(0, i + 1).join(sep), 'index.ts');
    if (target !== face)
      flag('sibling', file, target, existsSync(face) ? `enter through ${rel(face)}` : `${rel(dirname(face))} has no index.ts face`);
  }
  if (from === 'apiserver') {
    const a = roomOf(file);
    const b = roomOf(target);
    if (a === b) return;
    if (!roomEdges.has(a)) roomEdges.set(a, new Map());
    if (!roomEdges.get(a).has(b)) roomEdges.get(a).set(b, [file, target]);
    const fa = floorOf.get(a);
    const fb = floorOf.get(b);
    if (fa === undefined) flag('floor', file, target, `room ${a} is on no floor`);
    else if (fb === undefined) flag('floor', file, target, `room ${b} is on no floor`);
    else if (fb > fa) flag('floor', file, target, `${a} (floor ${fa}) may not import ${b} (floor ${fb}) above it`);
  }
}

function checkPublic(file, target, firstLine) {
  const to = layerOf(target);
  if (!to || target === join(src, to, 'index.ts')) return;
  if (/^\/\/.*\bprivate\b/i.test(firstLine)) return;
  flag('public', file, target, 'import the face, or say on the first line why this needs a private file');
}

for (const dir of ['src', 'test', 'examples']) {
  const root = join(repo, dir);
  if (!existsSync(root)) continue;
  for (const file of filesUnder(root, (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const firstLine = text.slice(0, text.indexOf('\n'));
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1]);
      if (!target) continue; // check-import-cycles.mjs reports what cannot be resolved
      if (dir === 'src') checkSrc(file, target);
      else checkPublic(file, target, firstLine);
    }
  }
}

// Cycles among the API server's rooms: each set of rooms that reach one another (a strongly
// connected component, Tarjan's algorithm) is one violation, named by its rooms in order.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function connect(room) {
  index.set(room, counter);
  low.set(room, counter++);
  stack.push(room);
  onStack.add(room);
  for (const next of roomEdges.get(room)?.keys() ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(room, Math.min(low.get(room), low.get(next)));
    } else if (onStack.has(next)) low.set(room, Math.min(low.get(room), index.get(next)));
  }
  if (low.get(room) !== index.get(room)) return;
  const component = [];
  let r;
  do {
    r = stack.pop();
    onStack.delete(r);
    component.push(r);
  } while (r !== room);
  if (component.length > 1) violations.push(`room-cycle: ${component.sort().join(', ')}`);
}
for (const room of [...roomEdges.keys()].sort()) if (!index.has(room)) connect(room);

const baselineFile = join(repo, 'scripts', 'layers-baseline.txt');
const baseline = existsSync(baselineFile)
  ? readFileSync(baselineFile, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
  : [];
if (process.argv.includes('--write-baseline')) {
  process.stdout.write([...new Set(violations)].sort().join('\n') + '\n');
  process.exit(0);
}
const known = new Set(baseline);
const knownKnots = baseline.filter((v) => v.startsWith('room-cycle: ')).map((v) => new Set(v.slice(12).split(', ')));
const insideKnownKnot = (v) =>
  v.startsWith('room-cycle: ') &&
  knownKnots.some((k) =>
    v
      .slice(12)
      .split(', ')
      .every((room) => k.has(room)),
  );
const fresh = [...new Set(violations)].filter((v) => !known.has(v) && !insideKnownKnot(v)).sort();
const gone = baseline.filter((v) => !violations.includes(v));
if (fresh.length > 0) console.error(`house rules broken:\n  ${fresh.join('\n  ')}`);
if (gone.length > 0) console.error(`fixed, so delete from scripts/layers-baseline.txt:\n  ${gone.join('\n  ')}`);
if (fresh.length > 0 || gone.length > 0) process.exit(1);
console.log(`house rules hold (${baseline.length} known debts in scripts/layers-baseline.txt)`);
