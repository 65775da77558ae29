// Bodies of the wrong JSON kind are refused in Go's encoding/json words wherever the server decodes
// them (object metadata, JSON patches, Secret maps), so a boolean is `bool` in every one of them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';
import { handleJson as call } from './helpers.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('decode errors name a boolean as Go does', () => {
  it('calls a boolean in metadata.labels a bool', async () => {
    const s = createApiServer();
    const r = await call(s, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: true } });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.message,
      'unable to decode the object: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
  });

  it('calls a JSON patch body or operation that is a boolean a bool', async () => {
    const s = createApiServer();
    assert.equal((await call(s, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } })).status, 201);
    const whole = await call(s, 'PATCH', `${CM}/a`, true, 'application/json-patch+json');
    assert.equal(whole.status, 400);
    assert.equal(whole.body.message, 'error decoding patch: json: cannot unmarshal bool into Go value of type jsonpatch.Patch');
    const op = await call(s, 'PATCH', `${CM}/a`, [false], 'application/json-patch+json');
    assert.equal(op.status, 400);
    assert.equal(op.body.message, 'error decoding patch: json: cannot unmarshal bool into Go value of type jsonpatch.Operation');
  });
});
