// A Secret write that fails is retried, and the keys issued for the failed attempts do not stay live.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnv, faultInjectingClient } from 'kube-converge/testing';
import { KeyIssuer } from '../src/issuer.js';
import { ApiKey } from '../src/api/apikey.js';
import { billing, crd, readyCondition, secretToken, startOperator } from './apikey-env.js';

describe('ApiKey operator, failing writes', () => {
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
});
