// Keeps the house rules of docs/architecture.md (layer matrix, faces, the API server's floors, public
// imports from tests and examples) true of the tree, and checks that the checker names rule and import.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-layers.mjs', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
const check = (root: string) => spawnSync(process.execPath, [script, root], { cwd: repo, encoding: 'utf8' });

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('house rules', () => {
  it('hold for src/, test/ and examples/, apart from the debts listed in scripts/layers-baseline.txt', () => {
    const r = check(repo);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /house rules hold/);
  });

  it('name the rule and the import: a layer importing upwards, a private file, a floor above, a room cycle, a test reaching in', (t) => {
    const dir = tree({
      'src/meta/index.ts': "export { up } from '../client/index.js';\n",
      'src/client/index.ts': "export { x } from './x.js';\n",
      'src/client/x.ts': 'export const x = 1;\nexport const up = 2;\n',
      'src/cache/index.ts': "export { x } from '../client/x.js';\n",
      'src/apiserver/index.ts': "export { s } from './storage/index.js';\n",
      'src/apiserver/ground/index.ts': "export { h } from '../http/index.js';\n",
      'src/apiserver/http/index.ts': "export { g } from '../ground/index.js';\nexport const h = 1;\n",
      'src/apiserver/storage/index.ts': "export { k } from './keys.js';\nexport const s = 1;\n",
      'src/apiserver/storage/keys.ts': 'export const k = 1;\n',
      'src/apiserver/handlers/get.ts': "import { k } from '../storage/keys.js';\nexport const get = k;\n",
      'test/reach.test.ts': "// A test.\nimport { x } from '../src/client/x.js';\nexport const y = x;\n",
      'test/why.test.ts': "// Reaches the private x to test it directly.\nimport { x } from '../src/client/x.js';\nexport const y = x;\n",
    });
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const r = check(dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /layer: src\/meta\/index\.ts imports src\/client\/index\.ts \(meta may import nothing of ours\)/);
    assert.match(r.stderr, /face: src\/cache\/index\.ts imports src\/client\/x\.ts/);
    assert.match(
      r.stderr,
      /sibling: src\/apiserver\/handlers\/get\.ts imports src\/apiserver\/storage\/keys\.ts \(enter through src\/apiserver\/storage\/index\.ts\)/,
    );
    assert.match(
      r.stderr,
      /floor: src\/apiserver\/ground\/index\.ts imports src\/apiserver\/http\/index\.ts \(ground \(floor 0\) may not import http/,
    );
    assert.match(r.stderr, /room-cycle: ground, http/);
    assert.match(r.stderr, /public: test\/reach\.test\.ts imports src\/client\/x\.ts/);
    assert.doesNotMatch(r.stderr, /why\.test\.ts/);
  });
});
