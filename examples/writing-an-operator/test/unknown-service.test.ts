// A service the issuer does not have: Ready=False, no more retries (a TerminalError), until the spec is fixed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretResource } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { TestEnv, eventually } from 'kube-converge/testing';
import { KeyIssuer } from '../src/issuer.js';
import { ApiKey } from '../src/api/apikey.js';
import { billing, crd, readyCondition, startOperator } from './apikey-env.js';

describe('ApiKey operator, unknown service', () => {
  it('reports an unknown service as Ready=False and stops retrying, until the spec is fixed', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const { mgr } = await startOperator(env, new KeyIssuer(['billing']));
    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'payroll' } });

    await readyCondition(env, 'False', 'UnknownService');
    const report = await eventually(
      async () => {
        const r = await mgr.explain(ApiKey, billing);
        return r.controllers[0]?.state?.phase === 'terminal' && r;
      },
      { message: 'the reconcile to end in a TerminalError' },
    );
    assert.equal(report.converged, false);
    await assert.rejects(env.client.get(SecretResource, { namespace: 'default', name: 'billing-apikey' }), (e) => isNotFound(e));

    await env.client.patch(ApiKey, billing, { spec: { service: 'billing' } }, 'merge');
    await readyCondition(env, 'True', 'KeyIssued');
  });
});
