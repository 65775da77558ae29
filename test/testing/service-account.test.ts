// TestEnv's ServiceAccount identities: a manager or client configured with one is authorized by RBAC
// on the local server, and every request it makes is in the identity's recording.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapResource, RoleResource, RoleBindingResource } from 'kube-converge/meta';
import { createClient, isForbidden } from 'kube-converge/client';
import { TestEnv, readRbacRecording } from 'kube-converge/testing';

describe('TestEnv.serviceAccount', () => {
  it('authenticates as the ServiceAccount, is refused what RBAC does not grant, and records each request', async () => {
    await using env = await TestEnv.start();
    const sa = await env.serviceAccount({ namespace: 'default', name: 'op' });
    assert.equal(sa.username, 'system:serviceaccount:default:op');
    const client = createClient({ config: sa.restConfig() });
    try {
      await assert.rejects(client.list(ConfigMapResource, { namespace: 'default' }), (e) => isForbidden(e));
      await env.client.create(RoleResource, {
        metadata: { namespace: 'default', name: 'cm-reader' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      });
      await env.client.create(RoleBindingResource, {
        metadata: { namespace: 'default', name: 'cm-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }],
      });
      await client.list(ConfigMapResource, { namespace: 'default' });
    } finally {
      client.close();
    }
    assert.deepEqual(sa.recording().requests, [{ verb: 'list', apiGroup: '', resource: 'configmaps', namespace: 'default' }]);
    const dir = await mkdtemp(join(tmpdir(), 'sa-rec-'));
    try {
      await sa.writeRecording(join(dir, 'rec.json'));
      assert.deepEqual(await readRbacRecording(join(dir, 'rec.json')), sa.recording());
      assert.match(await readFile(join(dir, 'rec.json'), 'utf8'), /"kind": "RbacRecording"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
