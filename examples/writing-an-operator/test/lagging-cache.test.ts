// A cache that lags behind the operator's own status write must not make it issue a second key.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnv, faultInjectingClient } from 'kube-converge/testing';
import { KeyIssuer } from '../src/issuer.js';
import { ApiKey } from '../src/api/apikey.js';
import { billing, crd, readyCondition, secretToken, startOperator } from './apikey-env.js';

describe('ApiKey operator, lagging cache', () => {
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
