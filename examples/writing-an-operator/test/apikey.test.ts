// End-to-end tests of the ApiKey operator of docs/writing-an-operator.md on the in-process API server
// (one fresh server per test), and the check that the guide shows only code that is in this folder or
// in the WebApp example's deployment, verbatim.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, FakeClock, SecretResource, findStatusCondition, type ObjectOf } from 'kube-converge/meta';
import { isInvalid, isNotFound, type Client } from 'kube-converge/client';
import { TestEnv, eventually, faultInjectingClient } from 'kube-converge/testing';
import { setupApiKeyController } from './controller.js';
import { KeyIssuer } from './issuer.js';
import { Backup } from './backup.js';
import { ApiKey, POLICY_CONFIGMAP, REVOKE_FINALIZER } from './types.js';

const crd = fileURLToPath(new URL('./crd.yaml', import.meta.url));
const billing = { namespace: 'default', name: 'billing' };

/** Starts a manager running the ApiKey controller against `env`; `client` lets a test inject faults. */
async function startOperator(env: TestEnv, issuer: KeyIssuer, client?: Client) {
  const mgr = await env.newManager(client ? { client } : {});
  setupApiKeyController(mgr, { issuer });
  const running = mgr.start();
  return { mgr, running };
}

/** Resolves with the ApiKey once `Ready` has `status` (and `reason`) for its current generation. */
function readyCondition(env: TestEnv, status: 'True' | 'False', reason?: string): Promise<ObjectOf<typeof ApiKey>> {
  return eventually(async () => {
    const key = await env.client.get(ApiKey, billing);
    const ready = findStatusCondition(key.status?.conditions, 'Ready');
    const current = ready?.observedGeneration === key.metadata.generation && key.status?.observedGeneration === key.metadata.generation;
    return current && ready?.status === status && (reason === undefined || ready.reason === reason) && key;
  }, { message: `Ready=${status}${reason ? ` (${reason})` : ''}` });
}

/** The key the Secret of `billing` holds, decoded. */
async function secretToken(env: TestEnv): Promise<string> {
  const secret = await env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' });
  return Buffer.from(secret.data!['token']!, 'base64').toString();
}

describe('ApiKey operator (docs/writing-an-operator.md)', () => {
  it('issues a key into a Secret the ApiKey controls and reports Ready for the current generation', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const issuer = new KeyIssuer(['billing']);
    await startOperator(env, issuer);
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });

    const key = await readyCondition(env, 'True', 'KeyIssued');
    assert.equal(key.status?.secretName, 'billing-apikey');
    assert.deepEqual(key.metadata.finalizers, [REVOKE_FINALIZER]);
    assert.equal(await secretToken(env), issuer.liveKey('default/billing'));
    const secret = await env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' });
    assert.equal(secret.metadata.ownerReferences?.[0]?.uid, key.metadata.uid);
    assert.equal(secret.metadata.ownerReferences?.[0]?.controller, true);
  });

  it('rotates the key when the namespace policy says it is due, through requeueAfter on the injected clock', async () => {
    const clock = new FakeClock();
    await using env = await TestEnv.start({ crds: [crd], clock });
    const issuer = new KeyIssuer(['billing']);
    await env.client.create(ConfigMapResource, { metadata: { namespace: 'default', name: POLICY_CONFIGMAP }, data: { rotationMinutes: '30' } });
    await startOperator(env, issuer);
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await readyCondition(env, 'True');
    const first = await secretToken(env);

    // One clock drives the manager: the rotation's requeueAfter fires only when the test moves it on.
    await clock.advance(29 * 60_000);
    assert.equal(issuer.liveKey('default/billing'), first, 'not due yet');
    await clock.advance(60_000);
    await eventually(async () => (await secretToken(env)) !== first, { message: 'a new key in the Secret' });
    assert.equal(await secretToken(env), issuer.liveKey('default/billing'), 'the Secret holds the one live key');
  });

  it('reconciles every ApiKey of a namespace when its policy ConfigMap changes', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    await startOperator(env, new KeyIssuer(['billing', 'search']));
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await env.client.create(ApiKey, { metadata: { namespace: 'default', name: 'search' }, spec: { service: 'search' } });
    await readyCondition(env, 'True');

    await env.client.create(ConfigMapResource, { metadata: { namespace: 'default', name: POLICY_CONFIGMAP }, data: { rotationMinutes: '5' } });
    await eventually(async () => {
      const keys = (await env.client.list(ApiKey, { namespace: 'default' })).items;
      return keys.length === 2 && keys.every((k) => findStatusCondition(k.status?.conditions, 'Ready')?.message?.endsWith('every 5 min'));
    }, { message: 'both ApiKeys under the new policy' });
  });

  it('reports an unknown service as Ready=False and stops retrying, until the spec is fixed', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const { mgr } = await startOperator(env, new KeyIssuer(['billing']));
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'payroll' } });

    await readyCondition(env, 'False', 'UnknownService');
    const report = await eventually(async () => {
      const r = await mgr.explain(ApiKey, billing);
      return r.controllers[0]?.state?.phase === 'terminal' && r;
    }, { message: 'the reconcile to end in a TerminalError' });
    assert.equal(report.converged, false);
    await assert.rejects(env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' }), (e) => isNotFound(e));

    await env.client.patch(ApiKey, billing, { spec: { service: 'billing' } }, 'merge');
    await readyCondition(env, 'True', 'KeyIssued');
  });

  it('reports a policy that does not parse as Ready=False InvalidPolicy, and recovers when it is fixed', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const policy = { namespace: 'default', name: POLICY_CONFIGMAP };
    await env.client.create(ConfigMapResource, { metadata: policy, data: { rotationMinutes: 'soon' } });
    await startOperator(env, new KeyIssuer(['billing']));
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });

    await readyCondition(env, 'False', 'InvalidPolicy');
    await env.client.patch(ConfigMapResource, policy, { data: { rotationMinutes: '60' } }, 'merge');
    await readyCondition(env, 'True', 'KeyIssued');
  });

  it('revokes the key before a deleted ApiKey goes, and the garbage collector takes its Secret', async () => {
    await using env = await TestEnv.start({ crds: [crd], garbageCollection: true });
    const issuer = new KeyIssuer(['billing']);
    await startOperator(env, issuer);
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await readyCondition(env, 'True');

    await env.client.delete(ApiKey, billing);
    await eventually(() => assert.rejects(env.client.get(ApiKey, billing), (e) => isNotFound(e)), { message: 'the ApiKey gone' });
    assert.equal(issuer.liveKey('default/billing'), undefined, 'revoked before the finalizer was removed');
    await eventually(() => assert.rejects(env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' }), (e) => isNotFound(e)));
  });

  it('retries a failed Secret write with backoff and leaves exactly the stored key live', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const issuer = new KeyIssuer(['billing']);
    let failures = 0;
    const flaky = faultInjectingClient(env.client, {
      beforeWrite: (w) => {
        if (w.resource.kind === 'Secret' && w.verb === 'create' && failures++ < 2) throw new Error('injected: connection reset');
      },
    });
    await startOperator(env, issuer, flaky);
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });

    await readyCondition(env, 'True', 'KeyIssued');
    assert.equal(failures, 3, 'two failed creates, then one that went through');
    assert.equal(await secretToken(env), issuer.liveKey('default/billing'), 'the keys issued for the failed writes were replaced');
  });

  it('does not rotate the key a second time when the cache has not observed its own status write yet', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const issuer = new KeyIssuer(['billing']);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const lagging = faultInjectingClient(env.client, {
      // The cache sees the ApiKey's finalizer but not its status until the gate opens.
      beforeWatchEvent: (r, e) => (r.kind === 'ApiKey' && e.type === 'MODIFIED' && 'status' in e.object ? gate : undefined),
    });
    await startOperator(env, issuer, lagging);
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await readyCondition(env, 'True');
    const first = await secretToken(env);
    // The Secret's event wakes the reconciler again while the cache shows no key issued yet: read-your-
    // writes holds that reconcile until the cache shows the status write (and without it, the live read
    // would find the key standing). Either way, no second key.
    assert.equal(issuer.liveKey('default/billing'), first);

    openGate();
    await readyCondition(env, 'True');
    assert.equal(await secretToken(env), first, 'the live read found the key standing');
    assert.equal(issuer.liveKey('default/billing'), first);
  });
});

describe('the schema-first Backup kind', () => {
  it('installs from its definition alone, and the API server enforces its schema', async () => {
    await using env = await TestEnv.start({ crds: [Backup.crd()] });
    const backup = { metadata: { namespace: 'default', name: 'nightly' }, spec: { schedule: '0 3 * * *' } };
    assert.equal((await env.client.create(Backup, backup)).spec.schedule, '0 3 * * *');
    await assert.rejects(env.client.create(Backup, { ...backup, metadata: { namespace: 'default', name: 'empty' }, spec: { schedule: '' } }), (err: unknown) => isInvalid(err));
  });
});

describe('docs/writing-an-operator.md', () => {
  const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');
  const guide = read('../../docs/writing-an-operator.md');
  const sources = ['./types.ts', './crd.yaml', './backup.ts', './issuer.ts', './controller.ts', './apikey.test.ts', '../webapp/deploy/operator-main.ts'];

  it('shows only TypeScript and YAML that is in the example files, verbatim', () => {
    const files = sources.map(read);
    const blocks = [...guide.matchAll(/^```(ts|yaml)\n([\s\S]*?)^```$/gm)].map((m) => m[2]!);
    assert.ok(blocks.length >= 8, `found only ${blocks.length} code blocks`);
    for (const block of blocks) {
      assert.ok(files.some((f) => f.includes(block)), `not in ${sources.join(', ')}:\n${block}`);
    }
  });

  it('shows types.ts and crd.yaml whole', () => {
    for (const path of ['./types.ts', './crd.yaml']) assert.ok(guide.includes('\n' + read(path) + '```\n'), `${path} must be shown whole`);
  });

  it('links only to files that exist', () => {
    const root = new URL('../../', import.meta.url);
    for (const [, path] of guide.matchAll(/\]\(\.\.\/((?:examples|docs|src)\/[^)#]*)/g)) {
      assert.ok(existsSync(new URL(path!, root)), `${path} does not exist`);
    }
  });
});
