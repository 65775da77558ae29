// `converge init` as a new user meets it: the package is packed once (as npm would publish it), its
// built `converge init --kube-converge <tarball>` writes a project that vendors the tarball, one
// `npm install` installs it and the rest from the registry, and the project's own `npm test`
// (compile, the generated-manifest checks, its TestEnv tests) must pass as written. Then the
// permission loop (a missing permission named as a 403, `npm run rbac` restoring it without dropping
// others), `converge create api` of a cluster-scoped kind through the installed bin, the deploy
// scripts in order against the project's own `converge apiserver`, the image's npm ci from the Dockerfile's build
// context alone, and `npm run e2e`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { NPM_FLAGS, cleanEnv, packCopy, run } from '../package/pack.js';

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
    const out = await run(process.execPath, [join(checkout, 'dist/cli/main.js'), 'init', 'demo-op', '--kube-converge', tarball], work);
    assert.match(out, /^Created demo-op \(kind Demo, group demo-op\.example\.com, kube-converge vendored as vendor\/kube-converge-/);
    project = join(work, 'demo-op');
    await run('npm', ['install', ...NPM_FLAGS], project);
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
      'config/crd/bases/demo-op.example.com_demos.yaml',
      'minLength: 1',
      'minLength: 2',
      /stale: +config\/crd\/bases\/demo-op\.example\.com_demos\.yaml/,
    );
    await drift('config/rbac/role.yaml', '      - delete\n', '', /missing: delete configmaps/);
    for (const c of checks) await run('npx', c.split(' '), project);
  });

  it('fails a test for a missing permission naming the 403, and npm run rbac restores it without dropping the others', async () => {
    const path = join(project, 'config/rbac/role.yaml');
    const original = await readFile(path, 'utf8');
    const statusRule = '  - apiGroups:\n      - demo-op.example.com\n    resources:\n      - demos/status\n    verbs:\n      - patch\n';
    assert.ok(original.includes(statusRule), original);
    await writeFile(path, original.replace(statusRule, ''));
    const failed = await run('npm', ['test'], project).then(
      () => assert.fail('npm test passed without the status permission'),
      (e: Error) => e.message,
    );
    assert.match(failed, /refused by the API server \(403 Forbidden\)/);
    assert.match(failed, /cannot patch resource "demos\/status" in API group "demo-op\.example\.com"/);
    const rbac = await promisify(execFile)('npm', ['run', 'rbac'], { cwd: project, env: cleanEnv });
    assert.match(rbac.stderr, /added: patch demos\/status/);
    // Nothing the refused run never reached is dropped: the role is what it was.
    assert.equal(await readFile(path, 'utf8'), original);
    assert.deepEqual(summary(await run('npm', ['test'], project)), { pass: 2, fail: 0 });
  });

  it('adds a cluster-scoped kind with `converge create api Backup --namespaced=false`, after which npm test passes with both kinds', async () => {
    assert.match(
      await run('npx', ['converge', 'create', 'api', 'Backup', '--namespaced=false'], project),
      /^Added Backup \(backups\.demo-op\.example\.com\/v1alpha1, cluster-scoped\)/,
    );
    const out = await run('npm', ['test'], project);
    assert.deepEqual(summary(out), { pass: 4, fail: 0 }, out);
  });

  it('deploys in order against converge apiserver: npm run install-crds, deploy, the samples, undeploy', async () => {
    // The project's own converge, built: what the user runs (npx converge apiserver), and no tsx start-up.
    const kubeconfig = join(work, 'deploy.kubeconfig');
    const server = spawn(
      process.execPath,
      [join(project, 'node_modules/kube-converge/dist/cli/main.js'), 'apiserver', '--kubeconfig', kubeconfig],
      {
        cwd: project,
        env: cleanEnv,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    try {
      await new Promise<void>((ready, fail) => {
        let out = '';
        server.stdout.setEncoding('utf8').on('data', (c: string) => (out += c).includes('kubeconfig written') && ready());
        void exited.then((code) => fail(new Error(`converge apiserver exited ${String(code)} before it was ready:\n${out}`)));
      });
      const env = { ...cleanEnv, KUBECONFIG: kubeconfig };
      const sh = async (cmd: string, args: string[]): Promise<string> =>
        (await promisify(execFile)(cmd, args, { cwd: project, env })).stdout;
      assert.match(
        await sh('npm', ['run', 'install-crds']),
        /customresourcedefinition\.apiextensions\.k8s\.io\/demos\.demo-op\.example\.com created/,
      );
      const deployed = await sh('npm', ['run', 'deploy']);
      for (const made of [
        'namespace/demo-op-system',
        'deployment.apps/demo-op',
        'clusterrolebinding.rbac.authorization.k8s.io/demo-op',
        'service/demo-op-metrics',
      ])
        assert.match(deployed, new RegExp(`${made.replace(/[./]/g, '\\$&')} created`), deployed);
      assert.match(await sh('kubectl', ['apply', '-k', 'config/samples']), /backup\.demo-op\.example\.com\/backup-sample created/);
      // The namespace goes first and takes the Deployment and Service with it; --ignore-not-found keeps the rest quiet.
      const undeployed = await sh('npm', ['run', 'undeploy']);
      assert.match(undeployed, /namespace "demo-op-system" deleted/);
      assert.match(undeployed, /clusterrolebinding\.rbac\.authorization\.k8s\.io "demo-op" deleted/);
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  });

  it("installs the image's production dependencies from the Dockerfile's build context alone (docker build's npm ci, without docker)", async () => {
    const dockerfile = await readFile(join(project, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const beforeCi = runtime.slice(0, runtime.indexOf('RUN npm ci'));
    const copied = [...beforeCi.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(' '));
    assert.deepEqual(copied, ['package.json', 'package-lock.json', 'vendor']);
    const context = join(work, 'image');
    await mkdir(context);
    for (const f of copied) await cp(join(project, f), join(context, f), { recursive: true });
    await run('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], context);
    await readFile(join(context, 'node_modules/kube-converge/package.json'), 'utf8');
  });

  it('passes npm run e2e: the operator as a process against converge apiserver, every sample Ready', async () => {
    assert.match(await run('npm', ['run', 'e2e'], project), /e2e: 2 sample\(s\) Ready/);
  });
});
