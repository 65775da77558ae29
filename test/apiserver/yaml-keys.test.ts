// YAML maps are composed without pairwise key comparison (quadratic in the number of keys): a
// repeated key keeps its last value, as JSON.parse does for a JSON body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';

describe('YAML map keys', () => {
  it('keeps the last value of a repeated key, as a JSON body does', async () => {
    const s = createApiServer();
    const path = '/api/v1/namespaces/default/configmaps';
    const yaml = await s.handle({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/yaml' },
      body: 'metadata: {name: y}\ndata: {a: "1", a: "2"}\n',
    });
    const json = await s.handle({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: '{"metadata":{"name":"j"},"data":{"a":"1","a":"2"}}',
    });
    assert.equal(yaml.status, 201);
    assert.deepEqual(JSON.parse(yaml.body).data, JSON.parse(json.body).data);
    assert.deepEqual(JSON.parse(yaml.body).data, { a: '2' });
    s.stop();
  });
});
