// Imports meta's internal (private) face: machinery shared between layers that the package does not export.
// Group/version/kind parsing and formatting.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseGroupVersion, formatGroupVersion, gvkOf, InvalidOptionError } from 'kube-converge/meta';
import { formatGVK, formatGVR } from '../../src/meta/internal.js';

describe('group/version/kind', () => {
  it('parses core and named-group apiVersions', () => {
    assert.deepEqual(parseGroupVersion('v1'), { group: '', version: 'v1' });
    assert.deepEqual(parseGroupVersion('apps/v1'), { group: 'apps', version: 'v1' });
    assert.deepEqual(parseGroupVersion('coordination.k8s.io/v1'), { group: 'coordination.k8s.io', version: 'v1' });
  });

  it('formats back to the same string', () => {
    for (const s of ['v1', 'apps/v1', 'shop.example.com/v1alpha1']) assert.equal(formatGroupVersion(parseGroupVersion(s)), s);
  });

  it('rejects empty apiVersions, empty parts and more than one slash', () => {
    for (const bad of ['', '/v1', 'apps/', 'a/b/c']) assert.throws(() => parseGroupVersion(bad), InvalidOptionError, bad);
  });

  it('reads the GVK of an object and requires a kind', () => {
    assert.deepEqual(gvkOf({ apiVersion: 'apps/v1', kind: 'Deployment' }), { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.deepEqual(gvkOf({ apiVersion: 'v1', kind: 'ConfigMap' }), { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.throws(() => gvkOf({ apiVersion: 'v1' }), InvalidOptionError);
    assert.throws(() => gvkOf({ kind: 'ConfigMap' }), InvalidOptionError);
  });

  it('formats GVKs and GVRs for messages, without a trailing dot for the core group', () => {
    assert.equal(formatGVK({ group: 'apps', version: 'v1', kind: 'Deployment' }), 'Deployment.v1.apps');
    assert.equal(formatGVK({ group: '', version: 'v1', kind: 'ConfigMap' }), 'ConfigMap.v1');
    assert.equal(formatGVR({ group: 'apps', version: 'v1', resource: 'deployments' }), 'deployments.v1.apps');
    assert.equal(formatGVR({ group: '', version: 'v1', resource: 'configmaps' }), 'configmaps.v1');
  });
});
