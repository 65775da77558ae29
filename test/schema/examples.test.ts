// The examples' CRDs are generated output: `converge generate --check` fails this test (and so
// `npm test`) when a definition changed and its YAML was not generated again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = [
  { module: 'examples/application-route/types.ts', out: 'examples/application-route' },
  { module: 'examples/webapp/types.ts', out: 'examples/webapp' },
];

describe('the examples’ generated CRDs', () => {
  for (const { module, out } of EXAMPLES) {
    it(`${out} is what converge generate writes from ${module}`, async () => {
      const args = ['--conditions=source', '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'generate', module, '--out', out, '--check'];
      const r = await new Promise<{ code: number; output: string }>((resolve) =>
        execFile(process.execPath, args, { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: stdout + stderr }),
        ),
      );
      assert.equal(r.code, 0, `run: converge generate ${module} --out ${out}\n${r.output}`);
    });
  }
});
