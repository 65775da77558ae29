// Rotation on the namespace's schedule, driven by a fake clock: the test moves time on instead of waiting.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, FakeClock } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { KeyIssuer } from '../src/issuer.js';
import { ApiKey, POLICY_CONFIGMAP } from '../src/api/apikey.js';
import { billing, crd, readyCondition, secretToken, startOperator } from './apikey-env.js';

describe('ApiKey rotation', () => {
  it('rotates the key when the namespace policy says it is due, through requeueAfter on the injected clock', async () => {
    const clock = new FakeClock();
    await using env = await TestEnv.start({ crds: [crd], clock });
    const issuer = new KeyIssuer(['billing']);
    await env.client.create(ConfigMapResource, {
      metadata: { namespace: 'default', name: POLICY_CONFIGMAP },
      data: { rotationMinutes: '30' },
    });
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
});
