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

/** The summary node's test runner prints last: `# pass N` in TAP (Node 20 off a terminal), `ℹ pass N` in spec (Node 23+ everywhere). */
function summary(out: string): { pass: number; fail: number } {
  const count = (what: string) => Number(new RegExp(`^\\s*[#ℹ] ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
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

  it('fails the checks of npm test when config/crd or config/rbac drift from the definitions and the recorded calls', async () => {
    const { scripts } = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // The checks exactly as npm test runs them, on what its last run compiled and recorded.
    const checks = scripts['test']!.split(' && ').filter((c) => c.includes('--check'));
    assert.deepEqual(
      checks.map((c) => c.split(' ')[1]),
      ['generate', 'rbac'],
    );
    const drift = async (file: string, from: string, to: string, expected: RegExp): Promise<void> => {
      const path = join(project, file);
      const original = await readFile(path, 'utf8');
      assert.ok(original.includes(from), `${file} holds ${from}`);
      await writeFile(path, original.replace(from, to));
      try {
        const failures = await Promise.all(
          checks.map((c) =>
            run('npx', c.split(' '), project).then(
              () => '',
              (e: Error) => e.message,
            ),
          ),
        );
        assert.match(failures.join('\n'), expected);
      } finally {
        await writeFile(path, original);
      }
    };
    await drift(
      'config/crd/demo-op.example.com_demos.yaml',
      'minLength: 1',
      'minLength: 2',
      /stale: +config\/crd\/demo-op\.example\.com_demos\.yaml/,
    );
    await drift('config/rbac/role.yaml', '      - delete\n', '', /missing: delete configmaps/);
    for (const c of checks) await run('npx', c.split(' '), project);
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
