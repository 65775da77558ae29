// The `converge` command as a child process: usage, version and exit codes; `converge apiserver` serving over
// HTTPS with CRDs from files and folders and a kubeconfig (CA and token) until SIGTERM; readable CRD errors
// naming the path; and the warnings for plain HTTP and a non-loopback address.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { serverFetch } from './helpers.js';
import { runConverge as run, type ConvergeRun as Run } from '../e2e/apiserver-process.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs `body` with a temporary folder, and kills the child processes it started whatever happens. */
async function withDir(body: (dir: string, spawned: (r: Run) => Run) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'));
  const children: Run[] = [];
  try {
    await body(dir, (r) => (children.push(r), r));
  } finally {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

const crdYaml = (plural: string, kind: string, extra = ''): string =>
  [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    `metadata: {name: ${plural}.example.com}`,
    'spec:',
    '  group: example.com',
    '  scope: Cluster',
    `  names: {plural: ${plural}, kind: ${kind}}`,
    '  versions:',
    `  - name: v1`,
    '    served: true',
    '    storage: true',
    '    schema: {openAPIV3Schema: {type: object}}',
    extra,
    '',
  ].join('\n');

/** The kubeconfig's server, CA and token, in the shape the test helpers take. */
async function serverOf(kubeconfig: string): Promise<{ url: string; caCertificate: string | undefined; token: string }> {
  const config = parse(await readFile(kubeconfig, 'utf8'));
  const cluster = config.clusters[0].cluster;
  const ca = cluster['certificate-authority-data'];
  return {
    url: cluster.server,
    caCertificate: ca === undefined ? undefined : Buffer.from(ca, 'base64').toString(),
    token: config.users[0].user.token,
  };
}

describe('converge CLI', () => {
  it('prints usage for --help and for help, with status 0', async () => {
    for (const arg of ['--help', 'help']) {
      const p = run([arg]);
      assert.equal(await p.exited, 0);
      assert.match(p.out(), /converge apiserver \[--port N\]/);
      assert.match(p.out(), /--insecure-http/);
    }
  });

  it('prints the package version for --version', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const p = run(['--version']);
    assert.equal(await p.exited, 0);
    assert.equal(p.out(), `${pkg.version}\n`);
  });

  it('runs the API server over HTTPS with CRDs from a directory, writes a kubeconfig with CA and token, and stops cleanly on SIGTERM', async () => {
    await withDir(async (dir, spawned) => {
      await writeFile(join(dir, 'crd.yaml'), crdYaml('gadgets', 'Gadget'));
      const kc = join(dir, 'kubeconfig');
      const p = spawned(run(['apiserver', '--kubeconfig', kc, '--crds', dir]));
      const url = await p.listening();
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const server = await serverOf(kc);
      assert.equal(server.url, url);
      assert.match(server.caCertificate ?? '', /BEGIN CERTIFICATE/);
      assert.equal((await serverFetch(server, '/apis/example.com/v1/gadgets')).status, 200);
      assert.equal((await serverFetch(server, '/apis/example.com/v1/gadgets', { token: null })).status, 401);
      assert.equal(p.err(), '', 'no warnings for the defaults');
      p.child.kill('SIGTERM');
      assert.equal(await p.exited, 0);
    });
  });

  it('takes --crds as files and folders, repeated or comma-separated', async () => {
    await withDir(async (dir, spawned) => {
      await mkdir(join(dir, 'more'));
      await writeFile(join(dir, 'a.yaml'), crdYaml('alphas', 'Alpha'));
      await writeFile(join(dir, 'b.yaml'), crdYaml('betas', 'Beta'));
      await writeFile(join(dir, 'more', 'c.json'), JSON.stringify(parse(crdYaml('gammas', 'Gamma'))));
      const kc = join(dir, 'kubeconfig');
      const p = spawned(
        run(['apiserver', '--kubeconfig', kc, '--crds', `${join(dir, 'a.yaml')},${join(dir, 'b.yaml')}`, '--crds', join(dir, 'more')]),
      );
      await p.listening();
      assert.match(p.out(), /installed 3 CustomResourceDefinition/);
      const server = await serverOf(kc);
      for (const plural of ['alphas', 'betas', 'gammas'])
        assert.equal((await serverFetch(server, `/apis/example.com/v1/${plural}`)).status, 200, plural);
    });
  });

  it('names the path when a --crds file cannot be read or holds something else, and exits 1 before listening', async () => {
    await withDir(async (dir) => {
      await writeFile(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
      await writeFile(join(dir, 'broken.yaml'), 'kind: [unclosed\n');
      for (const [path, why] of [
        [join(dir, 'cm.yaml'), /expected an apiextensions\.k8s\.io\/v1 CustomResourceDefinition, got v1\/ConfigMap/],
        [join(dir, 'broken.yaml'), /broken\.yaml: /],
        [join(dir, 'missing.yaml'), /cannot read/],
      ] as const) {
        const p = run(['apiserver', '--kubeconfig', join(dir, 'kubeconfig'), '--crds', path]);
        assert.equal(await p.exited, 1, p.err());
        assert.ok(p.err().includes(`--crds ${path}`), p.err());
        assert.match(p.err(), why);
        assert.doesNotMatch(p.out(), /listening/);
      }
    });
  });

  it('prints a CRD the server refuses as a list of field: message causes', async () => {
    await withDir(async (dir) => {
      // Two versions both marked as the storage version: kube-apiserver refuses that with a 422.
      const bad = crdYaml(
        'widgets',
        'Widget',
        ['  - name: v2', '    served: true', '    storage: true', '    schema: {openAPIV3Schema: {type: object}}'].join('\n'),
      );
      await writeFile(join(dir, 'bad.yaml'), bad);
      const p = run(['apiserver', '--kubeconfig', join(dir, 'kubeconfig'), '--crds', join(dir, 'bad.yaml')]);
      assert.equal(await p.exited, 1);
      assert.match(
        p.err(),
        new RegExp(
          `--crds ${join(dir, 'bad.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: CustomResourceDefinition widgets\\.example\\.com is invalid:\\n  - spec\\.versions: `,
        ),
      );
      assert.doesNotMatch(p.err(), /"kind":"Status"/);
    });
  });

  it('warns when a --crds folder holds no CRD, and still serves', async () => {
    await withDir(async (dir, spawned) => {
      await mkdir(join(dir, 'empty'));
      const p = spawned(run(['apiserver', '--kubeconfig', join(dir, 'kubeconfig'), '--crds', join(dir, 'empty')]));
      await p.listening();
      assert.match(p.err(), /WARNING: --crds .*empty: the folder holds no CustomResourceDefinition/);
    });
  });

  it('serves plain HTTP with --insecure-http, warning loudly on stderr, and still requires the token', async () => {
    await withDir(async (dir, spawned) => {
      const kc = join(dir, 'kubeconfig');
      const p = spawned(run(['apiserver', '--kubeconfig', kc, '--insecure-http']));
      const url = await p.listening();
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(p.err(), /WARNING: --insecure-http: serving plain HTTP/);
      const server = await serverOf(kc);
      assert.equal(server.caCertificate, undefined);
      assert.equal((await fetch(`${url}/api`)).status, 401);
      assert.equal((await fetch(`${url}/api`, { headers: { authorization: `Bearer ${server.token}` } })).status, 200);
    });
  });

  it('warns about a --host beyond loopback, and still requires the token there', async () => {
    await withDir(async (dir, spawned) => {
      const kc = join(dir, 'kubeconfig');
      const p = spawned(run(['apiserver', '--kubeconfig', kc, '--host', '0.0.0.0']));
      const url = await p.listening();
      assert.match(p.err(), /WARNING: --host 0\.0\.0\.0 listens beyond loopback/);
      const server = await serverOf(kc);
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/, 'a wildcard bind is dialled, and certified, as loopback');
      assert.equal((await serverFetch(server, '/api', { token: null })).status, 401);
      assert.equal((await serverFetch(server, '/api')).status, 200);
    });
  });

  it('exits with status 2 on unknown commands', async () => {
    const p = run(['frobnicate']);
    assert.equal(await p.exited, 2);
  });

  it('exits with status 2 and the usage on bad apiserver arguments, before listening', async () => {
    for (const args of [['--port', '1e3'], ['--port'], ['stray']]) {
      const p = run(['apiserver', ...args]);
      const code = await p.exited;
      assert.equal(code, 2, `${args.join(' ')}: ${p.err()}`);
      assert.match(p.err(), /Usage:/);
    }
  });
});
