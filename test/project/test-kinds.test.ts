// The rule that splits the suite: a test file that imports a process-starting module, directly or
// through a test helper, or that carries the process marker, is left out of `npm run test:unit`; and
// inside that run's test processes, starting a child process fails with a message naming the rule, so
// a unit test that starts one through the library cannot pass unnoticed.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROCESS_MARKER, processReason, unitTestFiles } from '../../scripts/test-kinds.mjs';

const guard = fileURLToPath(new URL('../../scripts/unit-guard.mjs', import.meta.url));

describe('test kinds', () => {
  const root = mkdtempSync(join(tmpdir(), 'converge-test-kinds-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('test/e2e/harness.ts', "import { execFile } from 'node:child_process';\nexport const run = execFile;\n");
  write('test/a/through-helper.test.ts', "import { run } from '../e2e/harness.js';\nvoid run;\n");
  write('test/a/direct.test.ts', "const cp = await import('node:child_process');\nvoid cp;\n");
  write('test/a/browser.test.ts', "import { chromium } from 'playwright-core';\nvoid chromium;\n");
  write('test/a/marked.test.ts', `// Runs an exec plugin through the client.\n${PROCESS_MARKER}\nexport {};\n`);
  write('src/spawner.ts', "import { spawn } from 'node:child_process';\nexport const s = spawn;\n");
  write('test/a/library.test.ts', "import { s } from '../../src/spawner.js';\nvoid s;\n");
  write('examples/x/plain.test.ts', "import { helper } from './helper.js';\nvoid helper;\n");
  write('test/a/lifecycle.e2e.test.ts', 'export {};\n');
  write('test/a/informer-soak.test.ts', 'export {};\n');
  write('examples/x/helper.ts', "import { readFileSync } from 'node:fs';\nexport const helper = readFileSync;\n");

  it('keeps tests that start processes or browsers, directly, through a helper or by marker, and long-running ones out of the unit tests', () => {
    assert.deepEqual(unitTestFiles(root), ['examples/x/plain.test.ts', 'test/a/library.test.ts']);
    assert.equal(
      processReason('test/a/through-helper.test.ts', root),
      'test/a/through-helper.test.ts → test/e2e/harness.ts imports node:child_process',
    );
    assert.equal(processReason('test/a/browser.test.ts', root), 'test/a/browser.test.ts imports playwright-core');
    assert.equal(processReason('test/a/marked.test.ts', root), `test/a/marked.test.ts carries "${PROCESS_MARKER}"`);
  });

  it('makes a unit test that starts a process through the library fail with a message naming the marker', () => {
    const script = "import { spawnSync } from 'node:child_process'; spawnSync('true');";
    const r = spawnSync(process.execPath, ['--import', guard, '--input-type=module', '-e', script], {
      env: { ...process.env, NODE_TEST_CONTEXT: 'child-v8' },
      encoding: 'utf8',
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /child_process\.spawnSync called in a unit test/);
    assert.match(r.stderr, /test-kind: process/);
  });

  it('leaves the test runner, which starts the test files, free to start processes', () => {
    const env = { ...process.env };
    delete env['NODE_TEST_CONTEXT'];
    const r = spawnSync(
      process.execPath,
      ['--import', guard, '-e', "require('node:child_process').spawnSync(process.execPath, ['-e', ''])"],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
  });
});
