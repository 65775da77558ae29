// `converge init` as a new user meets it: the package is packed once (as npm would publish it), its
// built `converge` writes a project into an empty folder, one `npm install` puts the tarball and the
// rest from the registry into it, and the project's own `npm test` (compile, the generated-manifest
// checks, its TestEnv tests) must pass as written. Then `converge create api` adds a kind through the
// installed bin, and `npm test` must pass again, now with both kinds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NPM_FLAGS, packCopy, run } from '../package/pack.js';

let work = '';
let project = '';

/** The `# pass N` / `# fail N` summary node's test runner prints last. */
function summary(out: string): { pass: number; fail: number } {
  const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  return { pass: count('pass'), fail: count('fail') };
}

before(
  async () => {
    work = await mkdtemp(join(tmpdir(), 'converge-init-'));
    const { tarball, checkout } = await packCopy(work);
    // The copy that was packed holds the very build the tarball ships.
    const out = await run(process.execPath, [join(checkout, 'dist/cli/main.js'), 'init', 'demo-op'], work);
    assert.match(out, /^Created demo-op \(kind Demo, group demo-op\.example\.com\)/);
    project = join(work, 'demo-op');
    await run('npm', ['install', tarball, ...NPM_FLAGS], project);
  },
  { timeout: 600_000 },
);

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('converge init demo-op, installed with the packed kube-converge', () => {
  it('passes its own npm test as written: it compiles strictly, its generated manifests are current, its TestEnv tests pass', async () => {
    const out = await run('npm', ['test'], project);
    assert.deepEqual(summary(out), { pass: 2, fail: 0 }, out);
  });

  it('fails npm test when a definition changes and the CRD is not regenerated, and passes again after npm run generate', async () => {
    const api = join(project, 'src/api/demo.ts');
    const original = await readFile(api, 'utf8');
    await writeFile(api, original.replace('minLength: 1', 'minLength: 2'));
    try {
      await assert.rejects(run('npm', ['test'], project), /stale|out of date|differ/i);
    } finally {
      await writeFile(api, original);
    }
    await run('npm', ['test'], project);
  });

  it('adds a kind with `converge create api Backup`, after which npm test passes with both kinds', async () => {
    assert.match(
      await run('npx', ['converge', 'create', 'api', 'Backup'], project),
      /^Added Backup \(backups\.demo-op\.example\.com\/v1alpha1\)/,
    );
    const out = await run('npm', ['test'], project);
    assert.deepEqual(summary(out), { pass: 4, fail: 0 }, out);
  });
});
