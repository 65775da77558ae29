// The schema-first Backup kind of step 0 of the guide: its CRD comes from its definition alone, and the
// API server enforces the schema that definition gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isInvalid } from 'kube-converge/client';
import { TestEnv } from 'kube-converge/testing';
import { Backup } from '../src/api/backup.js';

describe('the schema-first Backup kind', () => {
  it('installs from its definition alone, and the API server enforces its schema', async () => {
    await using env = await TestEnv.start({ crds: [Backup.crd()] });
    const backup = { metadata: { namespace: 'default', name: 'nightly' }, spec: { schedule: '0 3 * * *' } };
    assert.equal((await env.client.create(Backup, backup)).spec.schedule, '0 3 * * *');
    await assert.rejects(
      env.client.create(Backup, { ...backup, metadata: { namespace: 'default', name: 'empty' }, spec: { schedule: '' } }),
      (err: unknown) => isInvalid(err),
    );
  });
});
