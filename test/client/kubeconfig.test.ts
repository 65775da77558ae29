// Kubeconfig loading on real files: every auth kind, context choice and KUBECONFIG merging, in-cluster
// config, and errors that name file, context and cause; and a kubeconfig parsed from text.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { FakeClock } from 'kube-converge/meta';
import { loadKubeConfig, parseKubeConfig, inClusterConfig, getConfig, KubeConfigError, type RestConfig } from 'kube-converge/client';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'converge-kubeconfig-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig({
  clusters = [],
  users = [],
  contexts = [],
  current,
}: {
  clusters?: [string, Record<string, unknown>][];
  users?: [string, Record<string, unknown>][];
  contexts?: [string, Record<string, unknown>][];
  current?: string;
}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: clusters.map(([name, cluster]) => ({ name, cluster })),
    users: users.map(([name, user]) => ({ name, user })),
    contexts: contexts.map(([name, context]) => ({ name, context })),
    ...(current ? { 'current-context': current } : {}),
  });
}

async function authHeaders(c: RestConfig): Promise<Record<string, string | string[]> | undefined> {
  return (await c.auth?.credentials())?.headers;
}

/** Asserts a KubeConfigError naming the file, the context and a cause matching `cause`. */
function assertKubeConfigError(fn: () => unknown, { file, context, cause }: { file?: string; context?: string; cause: RegExp }): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof KubeConfigError, String(e));
    assert.equal(e.code, 'CONVERGE_KUBECONFIG');
    if (file !== undefined) assert.equal(e.file, file);
    if (context !== undefined) assert.equal(e.context, context);
    assert.match(e.reason, cause);
    if (file !== undefined) assert.ok(e.message.includes(file));
    return true;
  });
}

describe('kubeconfig: auth kinds', () => {
  it('reads a bearer token, CA data, tls-server-name, proxy-url and the context namespace', async () => {
    const f = write(
      'token.yaml',
      kubeconfig({
        clusters: [
          [
            'c',
            {
              server: 'https://10.0.0.1:6443',
              'certificate-authority-data': b64('CA PEM'),
              'tls-server-name': 'api.internal',
              'proxy-url': 'http://127.0.0.1:3128',
            },
          ],
        ],
        users: [['u', { token: 'abc' }]],
        contexts: [['ctx', { cluster: 'c', user: 'u', namespace: 'team-a' }]],
        current: 'ctx',
      }),
    );
    const c = loadKubeConfig({ path: f });
    assert.equal(c.server, 'https://10.0.0.1:6443');
    assert.equal(c.tls?.ca?.toString(), 'CA PEM');
    assert.equal(c.tls?.serverName, 'api.internal');
    assert.equal(c.proxyUrl, 'http://127.0.0.1:3128');
    assert.equal(c.namespace, 'team-a');
    assert.deepEqual(c.source, { file: f, context: 'ctx' });
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer abc' });
  });

  it('reads client certificate and key from files relative to the kubeconfig, and a CA file', () => {
    write('certs/client.crt', 'CERT');
    write('certs/client.key', 'KEY');
    write('certs/ca.crt', 'CA');
    const f = write(
      'cert.yaml',
      kubeconfig({
        clusters: [['c', { server: 'https://k:6443', 'certificate-authority': 'certs/ca.crt' }]],
        users: [['u', { 'client-certificate': 'certs/client.crt', 'client-key': 'certs/client.key' }]],
        contexts: [['ctx', { cluster: 'c', user: 'u' }]],
        current: 'ctx',
      }),
    );
    const c = loadKubeConfig({ path: f });
    assert.equal(c.tls?.cert?.toString(), 'CERT');
    assert.equal(c.tls?.key?.toString(), 'KEY');
    assert.equal(c.tls?.ca?.toString(), 'CA');
    assert.equal(c.namespace, 'default');
    assert.equal(c.auth, undefined);
  });

  it('reads client certificate and key data (base64) and insecure-skip-tls-verify', () => {
    const f = write(
      'certdata.yaml',
      kubeconfig({
        clusters: [['c', { server: 'https://k:6443', 'insecure-skip-tls-verify': true }]],
        users: [['u', { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }]],
        contexts: [['ctx', { cluster: 'c', user: 'u' }]],
        current: 'ctx',
      }),
    );
    const c = loadKubeConfig({ path: f });
    assert.equal(c.tls?.cert?.toString(), 'CERT');
    assert.equal(c.tls?.key?.toString(), 'KEY');
    assert.equal(c.tls?.insecureSkipVerify, true);
  });

  it('sends basic auth and impersonation headers', async () => {
    const f = write(
      'basic.yaml',
      kubeconfig({
        clusters: [['c', { server: 'http://127.0.0.1:1' }]],
        users: [['u', { username: 'admin', password: 's3cret', as: 'jane', 'as-groups': ['dev', 'ops'] }]],
        contexts: [['ctx', { cluster: 'c', user: 'u' }]],
        current: 'ctx',
      }),
    );
    assert.deepEqual(await authHeaders(loadKubeConfig({ path: f })), {
      authorization: `Basic ${b64('admin:s3cret')}`,
      'impersonate-user': 'jane',
      'impersonate-group': ['dev', 'ops'],
    });
  });

  it('re-reads a token file after a minute and at once after a 401', async () => {
    const tokenPath = write('tokens/t', 'one\n');
    const f = write(
      'tokenfile.yaml',
      kubeconfig({
        clusters: [['c', { server: 'http://127.0.0.1:1' }]],
        users: [['u', { tokenFile: 'tokens/t' }]],
        contexts: [['ctx', { cluster: 'c', user: 'u' }]],
        current: 'ctx',
      }),
    );
    const clock = new FakeClock();
    const c = loadKubeConfig({ path: f, clock });
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer one' });
    writeFileSync(tokenPath, 'two');
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer one' });
    await clock.advance(60_000);
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer two' });
    writeFileSync(tokenPath, 'three');
    assert.equal(await c.auth!.refresh!(), true);
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer three' });
    assert.equal(await c.auth!.refresh!(), false, 'an unchanged token cannot fix a 401');
  });
});

describe('kubeconfig: choosing and merging', () => {
  const a = () =>
    write(
      'merge/a.yaml',
      kubeconfig({
        clusters: [['shared', { server: 'https://from-a' }]],
        users: [['shared', { token: 'token-a' }]],
        contexts: [['ctx-a', { cluster: 'shared', user: 'shared' }]],
      }),
    );
  const b = () =>
    write(
      'merge/b.yaml',
      kubeconfig({
        clusters: [
          ['shared', { server: 'https://from-b' }],
          ['only-b', { server: 'https://only-b' }],
        ],
        users: [['shared', { token: 'token-b' }]],
        contexts: [
          ['ctx-b', { cluster: 'only-b', user: 'shared', namespace: 'b' }],
          ['ctx-a', { cluster: 'only-b' }],
        ],
        current: 'ctx-b',
      }),
    );
  const c = () => write('merge/c.yaml', kubeconfig({ current: 'ctx-a' }));

  it('merges KUBECONFIG files: first file wins per name, current-context from the first file that sets it, missing files skipped', async () => {
    const env = { KUBECONFIG: [a(), join(dir, 'merge/missing.yaml'), b(), c()].join(delimiter) };
    const cfg = loadKubeConfig({ env });
    assert.equal(cfg.source?.context, 'ctx-b');
    assert.equal(cfg.server, 'https://only-b');
    assert.equal(cfg.namespace, 'b');
    assert.deepEqual(await authHeaders(cfg), { authorization: 'Bearer token-a' }, 'user "shared" comes from the first file');
    const chosen = loadKubeConfig({ env, context: 'ctx-a' });
    assert.equal(chosen.server, 'https://from-a', 'context and cluster "shared" come from the first file');
  });

  it('falls back to ~/.kube/config under HOME when KUBECONFIG is unset', () => {
    write(
      'home/.kube/config',
      kubeconfig({ clusters: [['c', { server: 'https://home' }]], contexts: [['x', { cluster: 'c' }]], current: 'x' }),
    );
    assert.equal(loadKubeConfig({ env: { HOME: join(dir, 'home') } }).server, 'https://home');
  });

  it('prefers KUBECONFIG, then in-cluster, then ~/.kube/config in getConfig', () => {
    write(
      'home2/.kube/config',
      kubeconfig({ clusters: [['c', { server: 'https://home2' }]], contexts: [['x', { cluster: 'c' }]], current: 'x' }),
    );
    assert.equal(getConfig({ env: { HOME: join(dir, 'home2') } }).server, 'https://home2');
    // In a pod (service host set) it goes in-cluster: here the service account files are absent.
    assert.throws(
      () => getConfig({ env: { HOME: join(dir, 'home2'), KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' } }),
      /service account token/,
    );
    const kc = write(
      'getconfig-kc.yaml',
      kubeconfig({ clusters: [['c', { server: 'https://kc' }]], contexts: [['x', { cluster: 'c' }]], current: 'x' }),
    );
    assert.equal(
      getConfig({ env: { KUBECONFIG: kc, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' } }).server,
      'https://kc',
    );
  });
});

describe('kubeconfig: every problem names file, context and cause', () => {
  const good = { clusters: [['c', { server: 'https://k' }]] as [string, Record<string, unknown>][] };

  it('an explicit file that does not exist', () => {
    const f = join(dir, 'nope.yaml');
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, cause: /cannot read the file/ });
  });
  it('no file at all', () => {
    assertKubeConfigError(() => loadKubeConfig({ env: { KUBECONFIG: join(dir, 'none1') + delimiter + join(dir, 'none2') } }), {
      cause: /no kubeconfig file exists/,
    });
  });
  it('bad YAML', () => {
    const f = write('bad.yaml', 'clusters: [\n  - name: x\n  bad: : :');
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, cause: /invalid YAML/ });
  });
  it('a document that is not a mapping, or lists that are not lists', () => {
    const f1 = write('scalar.yaml', '- a\n- b\n');
    assertKubeConfigError(() => loadKubeConfig({ path: f1 }), { file: f1, cause: /not a mapping/ });
    const f2 = write('notlist.yaml', 'clusters: {a: 1}\n');
    assertKubeConfigError(() => loadKubeConfig({ path: f2 }), { file: f2, cause: /clusters must be a list/ });
  });
  it('no current context', () => {
    const f = write('nocurrent.yaml', kubeconfig({ ...good, contexts: [['x', { cluster: 'c' }]] }));
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, cause: /current-context is not set/ });
  });
  it('an unknown context, listing the known ones', () => {
    const f = write('unknownctx.yaml', kubeconfig({ ...good, contexts: [['x', { cluster: 'c' }]], current: 'x' }));
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'prod' }), {
      file: f,
      context: 'prod',
      cause: /context not found \(known: x\)/,
    });
  });
  it('a context whose cluster or user is missing', () => {
    const f = write(
      'dangling.yaml',
      kubeconfig({
        ...good,
        contexts: [
          ['x', { cluster: 'gone' }],
          ['y', { cluster: 'c', user: 'ghost' }],
        ],
        current: 'x',
      }),
    );
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, context: 'x', cause: /cluster "gone" not found/ });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'y' }), { file: f, context: 'y', cause: /user "ghost" not found/ });
  });
  it('a cluster without a server or with a bad URL', () => {
    const f = write(
      'noserver.yaml',
      kubeconfig({
        clusters: [
          ['c', {}],
          ['d', { server: 'not a url' }],
        ],
        contexts: [
          ['x', { cluster: 'c' }],
          ['y', { cluster: 'd' }],
        ],
        current: 'x',
      }),
    );
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, context: 'x', cause: /has no server/ });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'y' }), { file: f, context: 'y', cause: /is not a URL/ });
  });
  it('unreadable certificate files and bad base64 data', () => {
    const f = write(
      'badcert.yaml',
      kubeconfig({
        ...good,
        users: [
          ['u', { 'client-certificate': 'missing.crt', 'client-key': 'missing.key' }],
          ['v', { 'client-certificate-data': '!!!', 'client-key-data': b64('k') }],
        ],
        contexts: [
          ['x', { cluster: 'c', user: 'u' }],
          ['y', { cluster: 'c', user: 'v' }],
        ],
        current: 'x',
      }),
    );
    assertKubeConfigError(() => loadKubeConfig({ path: f }), {
      file: f,
      context: 'x',
      cause: /cannot read client-certificate .*missing\.crt/,
    });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'y' }), {
      file: f,
      context: 'y',
      cause: /client-certificate-data is not valid base64/,
    });
  });
  it('a certificate without its key, two auth methods, a legacy auth-provider, an unsupported proxy', () => {
    const f = write(
      'auth-errors.yaml',
      kubeconfig({
        clusters: [
          ['c', { server: 'https://k' }],
          ['socks', { server: 'https://k', 'proxy-url': 'socks5://127.0.0.1:1080' }],
        ],
        users: [
          ['half', { 'client-certificate-data': b64('c') }],
          ['two', { token: 't', username: 'u', password: 'p' }],
          ['legacy', { 'auth-provider': { name: 'gcp' } }],
        ],
        contexts: [
          ['half', { cluster: 'c', user: 'half' }],
          ['two', { cluster: 'c', user: 'two' }],
          ['legacy', { cluster: 'c', user: 'legacy' }],
          ['socks', { cluster: 'socks' }],
        ],
      }),
    );
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'half' }), {
      file: f,
      context: 'half',
      cause: /needs both certificate and key/,
    });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'two' }), {
      file: f,
      context: 'two',
      cause: /more than one authentication method \(token, basic auth\)/,
    });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'legacy' }), {
      file: f,
      context: 'legacy',
      cause: /auth-provider "gcp" is not supported/,
    });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'socks' }), {
      file: f,
      context: 'socks',
      cause: /only http:\/\/ proxies/,
    });
  });
  it('a bad exec stanza', () => {
    const f = write(
      'badexec.yaml',
      kubeconfig({
        ...good,
        users: [
          ['u', { exec: { command: 'x' } }],
          ['v', { exec: { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x' } }],
        ],
        contexts: [
          ['x', { cluster: 'c', user: 'u' }],
          ['y', { cluster: 'c', user: 'v' }],
        ],
        current: 'x',
      }),
    );
    assertKubeConfigError(() => loadKubeConfig({ path: f }), { file: f, context: 'x', cause: /exec.apiVersion is required/ });
    assertKubeConfigError(() => loadKubeConfig({ path: f, context: 'y' }), { file: f, context: 'y', cause: /v1alpha1" is not supported/ });
  });
  it('a token file that cannot be read, when the first request needs it', async () => {
    const f = write(
      'badtokenfile.yaml',
      kubeconfig({ ...good, users: [['u', { tokenFile: 'no-such-token' }]], contexts: [['x', { cluster: 'c', user: 'u' }]], current: 'x' }),
    );
    const c = loadKubeConfig({ path: f });
    await assert.rejects(
      c.auth!.credentials(),
      (e: unknown) => e instanceof KubeConfigError && e.file === f && e.context === 'x' && /no-such-token/.test(e.reason),
    );
  });
});

describe('kubeconfig from text', () => {
  const inline = kubeconfig({
    clusters: [['c', { server: 'https://10.0.0.2:6443', 'certificate-authority-data': b64('CA PEM') }]],
    users: [['u', { token: 'abc' }]],
    contexts: [
      ['one', { cluster: 'c', user: 'u', namespace: 'team-b' }],
      ['two', { cluster: 'c', user: 'u' }],
    ],
    current: 'one',
  });

  it('resolves the current or the chosen context, naming its origin as the source', async () => {
    const c = parseKubeConfig({ text: inline, origin: 'Secret fleet/prod' });
    assert.equal(c.server, 'https://10.0.0.2:6443');
    assert.equal(c.tls?.ca?.toString(), 'CA PEM');
    assert.equal(c.namespace, 'team-b');
    assert.deepEqual(c.source, { file: 'Secret fleet/prod', context: 'one' });
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer abc' });
    assert.equal(parseKubeConfig({ text: inline, context: 'two' }).namespace, 'default');
  });

  it('refuses a relative path, which text has no folder for, and reports problems as the file loader does', () => {
    const relative = kubeconfig({
      clusters: [['c', { server: 'https://10.0.0.2:6443', 'certificate-authority': 'ca.crt' }]],
      contexts: [['x', { cluster: 'c' }]],
      current: 'x',
    });
    assertKubeConfigError(() => parseKubeConfig({ text: relative, origin: 'Secret fleet/rel' }), {
      file: 'Secret fleet/rel',
      context: 'x',
      cause: /relative path "ca.crt" in a kubeconfig that is not a file/,
    });
    assertKubeConfigError(() => parseKubeConfig({ text: 'clusters: [' }), { file: '<kubeconfig text>', cause: /invalid YAML/ });
    assertKubeConfigError(() => parseKubeConfig({ text: inline, origin: 's', context: 'three' }), {
      file: 's',
      context: 'three',
      cause: /context not found \(known: one, two\)/,
    });
  });
});

describe('in-cluster config', () => {
  it('builds an https URL (IPv6 in brackets) with the service account CA, namespace and rotating token', async () => {
    const sa = join(dir, 'sa');
    write('sa/token', 'tok-1\n');
    write('sa/ca.crt', 'CA');
    write('sa/namespace', 'operators\n');
    const clock = new FakeClock();
    const c = inClusterConfig({
      env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: sa,
      clock,
    });
    assert.equal(c.server, 'https://[fd00::1]:443');
    assert.equal(c.tls?.ca?.toString(), 'CA');
    assert.equal(c.namespace, 'operators');
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer tok-1' });
    write('sa/token', 'tok-2');
    await clock.advance(60_000);
    assert.deepEqual(await authHeaders(c), { authorization: 'Bearer tok-2' });
    const v4 = inClusterConfig({
      env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '6443' },
      serviceAccountDir: sa,
      clock,
    });
    assert.equal(v4.server, 'https://10.96.0.1:6443');
  });

  it('fails outside a cluster with a KubeConfigError that says what is missing', () => {
    assertKubeConfigError(() => inClusterConfig({ env: {} }), {
      context: 'in-cluster',
      cause: /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set/,
    });
    assertKubeConfigError(
      () => inClusterConfig({ env: { KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '1' }, serviceAccountDir: join(dir, 'nosa') }),
      { cause: /cannot read the service account token/ },
    );
  });
});
