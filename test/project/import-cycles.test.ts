// Keeps src/ free of import cycles, and checks that the checker itself catches one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-import-cycles.mjs', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
const check = (folder: string) => spawnSync(process.execPath, [script, folder], { cwd: repo, encoding: 'utf8' });

describe('import cycles', () => {
  it('the relative imports of src/ form no cycle', () => {
    const r = check('src');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /no import cycle/);
  });

  it('the checker names the files of a cycle, type-only imports included, and refuses an import it cannot resolve', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'layer'));
    writeFileSync(join(dir, 'layer', 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    writeFileSync(join(dir, 'layer', 'b.ts'), "import {\n  a,\n} from './a.js';\nexport type B = typeof a;\n");
    const cycle = check(dir);
    assert.equal(cycle.status, 1);
    assert.match(cycle.stderr, /import cycle: .*a\.ts -> .*b\.ts -> .*a\.ts/);
    writeFileSync(join(dir, 'layer', 'b.ts'), "export { gone } from './missing.js';\n");
    const missing = check(dir);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /cannot resolve \.\/missing\.js/);
  });
});
