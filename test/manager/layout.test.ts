// Keeps src/manager's sub-folders honest: each is entered only through its index.ts face, and the
// sub-folders never reach back up into the manager's own files.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../../src/manager/', import.meta.url);

/** Every `.ts` file under src/manager, as paths relative to it (e.g. `cache/split-client.ts`). */
function files(dir = ''): string[] {
  return readdirSync(new URL(dir, root)).flatMap((name) => {
    const rel = `${dir}${name}`;
    return statSync(new URL(rel, root)).isDirectory() ? files(`${rel}/`) : rel.endsWith('.ts') ? [rel] : [];
  });
}

const relativeImports = (file: string): string[] =>
  [...readFileSync(new URL(file, root), 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) => m[1]!);

describe('manager layout', () => {
  it('has an index.ts face in every sub-folder', () => {
    const folders = readdirSync(root).filter((d) => statSync(new URL(d, root)).isDirectory());
    assert.ok(folders.length > 0);
    for (const d of folders) assert.ok(files(`${d}/`).includes(`${d}/index.ts`), `src/manager/${d} has no index.ts`);
  });

  it('imports a sub-folder or another layer only through its index.ts (another layer also through its internal.ts), and never the manager files from a sub-folder', () => {
    const bad: string[] = [];
    for (const file of files()) {
      const inSub = file.includes('/');
      for (const spec of relativeImports(file)) {
        const sameFolder = /^\.\/[a-z-]+\.js$/.test(spec);
        // Another layer may also be entered through its internal face (src/<layer>/internal.ts).
        const otherLayer = inSub ? /^\.\.\/\.\.\/[a-z]+\/internal\.js$/.test(spec) : /^\.\.\/[a-z]+\/internal\.js$/.test(spec);
        const face = otherLayer || (inSub ? /^\.\.\/(\.\.\/)?[a-z]+\/index\.js$/.test(spec) : /^\.\.?\/[a-z]+\/index\.js$/.test(spec));
        if (!sameFolder && !face) bad.push(`${file} imports ${spec}`);
      }
    }
    assert.deepEqual(bad, []);
  });
});
