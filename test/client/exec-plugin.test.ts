// Exec credential plugins run as real child processes: credentials cached until expiry on the injected
// clock, a re-run on 401, callers that abort, and errors that name file, context and command.
// test-kind: process
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapResource, FakeClock } from 'kube-converge/meta';
import { loadKubeConfig, createClient, KubeConfigError, isUnauthorized } from 'kube-converge/client';
import { startFixtureServer, sendJson } from './fixture-server.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'converge-exec-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// The plugin: appends one line per run to $COUNT_FILE (with the exec info it got), prints a token
// "token-<run>" that expires at $EXPIRES_<run> or $EXPIRES (if set), or fails when $FAIL is set, or
// prints $PRINT verbatim instead; $SLOW_MS delays the answer.
const PLUGIN = `
const fs = require('node:fs');
const n = (fs.existsSync(process.env.COUNT_FILE) ? fs.readFileSync(process.env.COUNT_FILE, 'utf8').split('\\n').filter(Boolean).length : 0) + 1;
fs.appendFileSync(process.env.COUNT_FILE, JSON.stringify({ info: process.env.KUBERNETES_EXEC_INFO, argv: process.argv.slice(2), greeting: process.env.GREETING }) + '\\n');
function answer() {
  if (process.env.FAIL) { process.stderr.write('login required: run my-login'); process.exit(3); }
  if (process.env.PRINT) { process.stdout.write(process.env.PRINT); process.exit(0); }
  const status = { token: 'token-' + n };
  const expires = process.env['EXPIRES_' + n] ?? process.env.EXPIRES;
  if (expires) status.expirationTimestamp = expires;
  process.stdout.write(JSON.stringify({ apiVersion: process.argv[2], kind: 'ExecCredential', status }));
}
if (process.env.SLOW_MS) setTimeout(answer, Number(process.env.SLOW_MS)); else answer();
`;

function setup(
  name: string,
  {
    apiVersion = 'client.authentication.k8s.io/v1',
    env = {} as Record<string, string>,
    server = 'http://127.0.0.1:1',
    provideClusterInfo = false,
  } = {},
) {
  const plugin = join(dir, `${name}-plugin.cjs`);
  writeFileSync(plugin, PLUGIN);
  const countFile = join(dir, `${name}.count`);
  const kc = join(dir, `${name}.yaml`);
  writeFileSync(
    kc,
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server, 'certificate-authority-data': Buffer.from('CA').toString('base64') } }],
      users: [
        {
          name: 'u',
          user: {
            exec: {
              apiVersion,
              command: process.execPath,
              args: [plugin, apiVersion],
              provideClusterInfo,
              installHint: 'install my-login',
              env: [
                { name: 'COUNT_FILE', value: countFile },
                { name: 'GREETING', value: 'hi' },
                ...Object.entries(env).map(([n, v]) => ({ name: n, value: v })),
              ],
            },
          },
        },
      ],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    }),
  );
  const runs = (): { info: string; argv: string[]; greeting: string }[] =>
    existsSync(countFile)
      ? readFileSync(countFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  return { kc, runs };
}

describe('exec credential plugins', () => {
  for (const apiVersion of ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']) {
    it(`runs the plugin once for concurrent first requests and passes env, args and KUBERNETES_EXEC_INFO (${apiVersion})`, async () => {
      const { kc, runs } = setup(`concurrent-${apiVersion.split('/')[1]}`, { apiVersion, provideClusterInfo: true });
      const cfg = loadKubeConfig({ path: kc });
      const all = await Promise.all(Array.from({ length: 8 }, () => cfg.auth!.credentials()));
      assert.ok(all.every((c) => c.headers?.authorization === 'Bearer token-1'));
      assert.equal(runs().length, 1);
      const run = runs()[0]!;
      assert.equal(run.greeting, 'hi');
      assert.equal(run.argv[0], apiVersion);
      assert.deepEqual(JSON.parse(run.info), {
        apiVersion,
        kind: 'ExecCredential',
        spec: {
          interactive: false,
          cluster: { server: 'http://127.0.0.1:1', 'certificate-authority-data': Buffer.from('CA').toString('base64') },
        },
      });
    });
  }

  it('reuses the credential until expirationTimestamp on the injected clock, then runs the plugin again', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const { kc, runs } = setup('expiry', { env: { EXPIRES_1: '2026-01-01T00:10:00Z', EXPIRES_2: '2026-01-01T00:20:00Z' } });
    const cfg = loadKubeConfig({ path: kc, clock });
    assert.equal((await cfg.auth!.credentials()).headers?.authorization, 'Bearer token-1');
    await clock.advance(9 * 60_000);
    assert.equal((await cfg.auth!.credentials()).headers?.authorization, 'Bearer token-1');
    assert.equal(runs().length, 1);
    await clock.advance(60_000);
    const renewed = await Promise.all([cfg.auth!.credentials(), cfg.auth!.credentials()]);
    assert.deepEqual(
      renewed.map((c) => c.headers?.authorization),
      ['Bearer token-2', 'Bearer token-2'],
    );
    assert.equal(runs().length, 2, 'one run for concurrent requests after expiry too');
    await clock.advance(10 * 60_000);
    assert.equal((await cfg.auth!.credentials()).headers?.authorization, 'Bearer token-3');
    await clock.advance(24 * 3600_000);
    assert.equal((await cfg.auth!.credentials()).headers?.authorization, 'Bearer token-3', 'no expirationTimestamp: kept until a 401');
    assert.equal(runs().length, 3);
  });

  it('refuses a credential that is already expired when printed', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const { kc } = setup('expired', { env: { EXPIRES: '2025-12-31T23:59:00Z' } });
    await assert.rejects(
      loadKubeConfig({ path: kc, clock }).auth!.credentials(),
      (e: unknown) => e instanceof KubeConfigError && /already expired/.test(e.reason),
    );
  });

  it('re-runs the plugin after a 401 and retries the request once with the new token', async () => {
    await using srv = await startFixtureServer((req, res) => {
      if (req.headers.authorization === 'Bearer token-2') sendJson(res, 200, { metadata: { name: 'a' } });
      else
        sendJson(res, 401, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Unauthorized',
          code: 401,
          message: 'Unauthorized',
        });
    });
    const { kc, runs } = setup('unauthorized', { server: srv.url });
    const client = createClient({ config: loadKubeConfig({ path: kc }), qps: -1 });
    assert.equal((await client.get(ConfigMapResource, { namespace: 'd', name: 'a' })).metadata.name, 'a');
    assert.equal(runs().length, 2);
    assert.deepEqual(
      srv.requests.map((r) => r.headers.authorization),
      ['Bearer token-1', 'Bearer token-2'],
    );
    client.close();
  });

  it('gives the caller the 401 when the token of the re-run plugin is refused too, after exactly one retry', async () => {
    await using srv = await startFixtureServer((_req, res) =>
      sendJson(res, 401, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'Unauthorized',
        code: 401,
        message: 'Unauthorized',
      }),
    );
    const { kc, runs } = setup('unauthorized-always', { server: srv.url });
    const client = createClient({ config: loadKubeConfig({ path: kc }), qps: -1 });
    await assert.rejects(client.get(ConfigMapResource, { namespace: 'd', name: 'a' }), (e: unknown) => isUnauthorized(e));
    assert.equal(runs().length, 2);
    assert.equal(srv.requests.length, 2);
    client.close();
  });

  it('lets a caller whose signal aborts stop waiting while the run goes on for the others', async () => {
    const { kc, runs } = setup('slow', { env: { SLOW_MS: '300' } });
    const cfg = loadKubeConfig({ path: kc });
    const ac = new AbortController();
    const impatient = cfg.auth!.credentials({ signal: ac.signal });
    const patient = cfg.auth!.credentials();
    const reason = new Error('gave up');
    ac.abort(reason);
    await assert.rejects(impatient, (e) => e === reason);
    assert.equal((await patient).headers?.authorization, 'Bearer token-1');
    assert.equal(runs().length, 1);
  });

  it('fails with a KubeConfigError naming file, context, command, stderr and the install hint', async () => {
    const { kc } = setup('failing', { env: { FAIL: '1' } });
    const cfg = loadKubeConfig({ path: kc });
    await assert.rejects(cfg.auth!.credentials(), (e: unknown) => {
      assert.ok(e instanceof KubeConfigError);
      assert.equal(e.file, kc);
      assert.equal(e.context, 'ctx');
      assert.match(e.reason, /login required: run my-login/);
      assert.match(e.reason, /install my-login/);
      assert.ok(e.reason.includes(process.execPath));
      return true;
    });
  });

  it('rejects output that is not JSON, naming the command, the position and the size', async () => {
    const { kc } = setup('garbage', { env: { PRINT: '  hello' } });
    await assert.rejects(loadKubeConfig({ path: kc }).auth!.credentials(), (e: unknown) => {
      assert.ok(e instanceof KubeConfigError);
      assert.ok(e.reason.includes(process.execPath));
      assert.match(e.reason, /output is not JSON: unexpected token at position 2, 7 bytes/);
      return true;
    });
  });

  it('never quotes the output: a token-looking output reaches neither the error message nor its cause chain', async () => {
    const secret = 'sha256~c2VjcmV0LXRva2VuLXRoYXQtbXVzdC1uZXZlci1iZS1sb2dnZWQ';
    const outputs = {
      bare: secret,
      'bare with a newline': `${secret}\n`,
      'JSON cut short': `{"kind":"ExecCredential","status":{"token":"${secret}`,
      'JSON then more': `{"kind":"ExecCredential"} ${secret}`,
      'token as kind': JSON.stringify({ kind: secret }),
      'token as apiVersion': JSON.stringify({ kind: 'ExecCredential', apiVersion: secret }),
      'token as expiry': JSON.stringify({
        kind: 'ExecCredential',
        apiVersion: 'client.authentication.k8s.io/v1',
        status: { token: 'x', expirationTimestamp: secret },
      }),
    };
    for (const [what, output] of Object.entries(outputs)) {
      const { kc } = setup(`leak-${what.replaceAll(' ', '-')}`, { env: { PRINT: output } });
      const error: unknown = await loadKubeConfig({ path: kc })
        .auth!.credentials()
        .then(
          () => assert.fail(`${what}: accepted`),
          (e: unknown) => e,
        );
      assert.ok(error instanceof KubeConfigError, what);
      assert.ok(error.reason.includes(process.execPath), `${what}: names the command`);
      for (let e: unknown = error, depth = 0; e !== undefined; e = (e as { cause?: unknown }).cause, depth++) {
        assert.ok(depth < 10);
        const shown = `${String((e as Error).message)} ${String((e as Error).stack)} ${JSON.stringify(e)}`;
        assert.ok(!shown.includes(secret.slice(0, 12)), `${what}: the output leaked at depth ${depth}: ${shown}`);
      }
    }
  });

  it('reports a missing executable', async () => {
    const kc = join(dir, 'missing-exec.yaml');
    writeFileSync(
      kc,
      JSON.stringify({
        clusters: [{ name: 'c', cluster: { server: 'https://k' } }],
        users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './bin/no-such-plugin' } } }],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      }),
    );
    await assert.rejects(
      loadKubeConfig({ path: kc }).auth!.credentials(),
      (e: unknown) =>
        e instanceof KubeConfigError && e.reason.includes(join(dir, 'bin/no-such-plugin')) && /executable not found/.test(e.reason),
    );
  });
});
