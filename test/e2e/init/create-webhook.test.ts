// Runs the command through the private src/cli/init.ts (the CLI has no face), as test/cli does.
// `converge create webhook` as a project's own checks see it, without packing or npm install (the
// test beside this one does that for `converge init`): a project is written into a temporary folder
// with every kind of webhook, its dependencies are linked to this checkout (kube-converge by its
// `source` condition), and then its strict compile, its `converge generate --check` and its compiled
// webhook tests run there, each as the project's npm test runs it. The webhook tests start TestEnv, whose API server
// calls the webhooks over HTTPS: a defaulted field appears, a name too long is refused with the
// validator's message, an object written in one version reads back in the other.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCreate, runInit } from '../../../src/cli/init.js';
import { repo, run } from '../package/pack.js';

let work = '';
let project = '';
const resolveHere = createRequire(join(repo, 'package.json')).resolve;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'converge-create-webhook-'));
  await runInit(['demo-op'], work);
  project = join(work, 'demo-op');
  await runCreate(['api', 'Backup', '--namespaced=false'], project);
  await runCreate(
    ['webhook', '--kind', 'Demo', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1beta1'],
    project,
  );
  await runCreate(['webhook', '--kind', 'Backup', '--programmatic-validation'], project);
  await mkdir(join(project, 'node_modules/@types'), { recursive: true });
  await symlink(repo, join(project, 'node_modules/kube-converge'), 'dir');
  for (const dep of ['typebox', 'yaml', 'typescript', 'tsx', '@types/node'])
    await symlink(join(repo, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
});

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The summary node's test runner prints last (`# pass N` in TAP, `ℹ pass N` in spec). */
function summary(out: string): { pass: number; fail: number } {
  const count = (what: string) => Number(new RegExp(`^\\s*[#ℹ] ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  return { pass: count('pass'), fail: count('fail') };
}

describe('a project after converge create webhook', () => {
  it('compiles under its strict tsconfig', async () => {
    // Into dist/, as npm test compiles it; kube-converge is checked from its sources, not compiled into dist/.
    await run(process.execPath, [resolveHere('typescript/bin/tsc'), '-p', 'tsconfig.json', '--customConditions', 'source'], project);
  });

  it('finds its CRDs current with converge generate --check, the two-version one with its conversion included', async () => {
    const converge = join(repo, 'src/cli/main.ts');
    const out = await run(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', converge, 'generate', 'dist/src/api/index.js', '--out', 'config/crd/bases', '--check'],
      project,
    );
    assert.match(out, /2 CRD file\(s\) in config\/crd\/bases are up to date/);
  });

  it('passes its webhook tests: defaulted, refused with the message, converted both ways, manifests as served', async () => {
    const tsx = pathToFileURL(resolveHere('tsx')).href;
    const out = await run(
      process.execPath,
      ['--conditions=source', '--import', tsx, '--test', 'dist/test/demo.webhook.test.js', 'dist/test/backup.webhook.test.js'],
      project,
    );
    assert.deepEqual(summary(out), { pass: 6, fail: 0 }, out);
  });
});
