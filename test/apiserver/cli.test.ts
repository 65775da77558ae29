// The `converge` command as a child process: usage and exit codes, and `converge apiserver` serving CRDs from a directory
// with a kubeconfig until SIGTERM.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

function run(args: string[]) {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('converge CLI', () => {
  it('prints usage for --help', async () => {
    const p = run(['--help']);
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise((r) => p.on('exit', r));
    assert.equal(code, 0);
    assert.match(out, /converge apiserver \[--port N\]/);
  });

  it('runs the API server with CRDs from a directory, writes a kubeconfig and stops cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'));
    try {
      await writeFile(join(dir, 'crd.yaml'), [
        'apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'metadata: {name: gadgets.example.com}', 'spec:',
        '  group: example.com', '  scope: Cluster', '  names: {plural: gadgets, kind: Gadget}', '  versions:',
        '  - name: v1', '    served: true', '    storage: true', '    schema: {openAPIV3Schema: {type: object}}', '',
      ].join('\n'));
      const kc = join(dir, 'kubeconfig');
      const p = run(['apiserver', '--kubeconfig', kc, '--crds', dir]);
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 15_000);
        p.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m && out.includes('kubeconfig written')) {
            clearTimeout(t);
            resolve(m[1]!);
          }
        });
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const config = parse(await readFile(kc, 'utf8'));
      assert.equal(config.clusters[0].cluster.server, url);
      assert.equal((await fetch(`${url}/apis/example.com/v1/gadgets`)).status, 200);
      p.kill('SIGTERM');
      const code = await new Promise((r) => p.on('exit', r));
      assert.equal(code, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits with status 2 on unknown commands', async () => {
    const p = run(['frobnicate']);
    const code = await new Promise((r) => p.on('exit', r));
    assert.equal(code, 2);
  });

  it('exits with status 2 and the usage on bad apiserver arguments, before listening', async () => {
    for (const args of [['--port', '1e3'], ['--port'], ['stray']]) {
      const p = run(['apiserver', ...args]);
      let err = '';
      p.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise((r) => p.on('exit', r));
      assert.equal(code, 2, `${args.join(' ')}: ${err}`);
      assert.match(err, /Usage:/);
    }
  });
});
