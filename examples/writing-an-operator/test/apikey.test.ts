// The ApiKey operator's main line: a key issued into a Secret the ApiKey controls, a policy change that
// reaches every ApiKey of its namespace, a policy that does not parse, and a deletion that revokes the
// key first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, SecretResource, findStatusCondition } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { TestEnv, eventually } from 'kube-converge/testing';
import { KeyIssuer } from '../src/issuer.js';
import { ApiKey, POLICY_CONFIGMAP, REVOKE_FINALIZER } from '../src/api/apikey.js';
import { billing, crd, readyCondition, secretToken, startOperator } from './apikey-env.js';

describe('ApiKey operator', () => {
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

  it('reconciles every ApiKey of a namespace when its policy ConfigMap changes', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    await startOperator(env, new KeyIssuer(['billing', 'search']));
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await env.client.create(ApiKey, { metadata: { namespace: 'default', name: 'search' }, spec: { service: 'search' } });
    await readyCondition(env, 'True');

    await env.client.create(ConfigMapResource, {
      metadata: { namespace: 'default', name: POLICY_CONFIGMAP },
      data: { rotationMinutes: '5' },
    });
    await eventually(
      async () => {
        const keys = (await env.client.list(ApiKey, { namespace: 'default' })).items;
        return keys.length === 2 && keys.every((k) => findStatusCondition(k.status?.conditions, 'Ready')?.message?.endsWith('every 5 min'));
      },
      { message: 'both ApiKeys under the new policy' },
    );
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
    await eventually(() =>
      assert.rejects(env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' }), (e) => isNotFound(e)),
    );
  });
});
