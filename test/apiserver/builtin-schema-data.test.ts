// The committed built-in schema data is exactly what scripts/builtin-schemas.mts makes from the
// installed @kubernetes/client-node, so upgrading that package is one command and a commit; and the
// data holds what the server relies on: descriptions, formats, required fields, int-or-string,
// opaque values and maps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { build, DATA_FILE } from '../../scripts/builtin-schemas.mjs';
import { builtinSchemas } from '../../src/apiserver/builtin-schemas/index.js';

describe('the built-in schema data', () => {
  it('is what the generator makes from the installed client-node', async () => {
    const committed = readFileSync(DATA_FILE);
    const text = await build();
    assert.equal(gunzipSync(committed).toString('utf8'), text, 'run: node --import tsx scripts/builtin-schemas.mts');
  });

  it('names the package it came from and the Kubernetes release that package models', () => {
    const schemas = builtinSchemas();
    assert.match(schemas.source, /^@kubernetes\/client-node \d+\.\d+\.\d+$/);
    assert.match(schemas.kubernetesVersion, /^1\.\d+$/);
  });

  it('carries descriptions, formats, required fields, int-or-string, opaque values and maps', () => {
    const schemas = builtinSchemas();
    const prop = (component: string, field: string): Record<string, unknown> =>
      (schemas.schema(component)?.['properties'] as Record<string, Record<string, unknown>>)[field]!;
    const spec = 'io.k8s.api.apps.v1.DeploymentSpec';
    assert.match(String(prop(spec, 'replicas')['description']), /Number of desired pods/);
    assert.deepEqual([prop(spec, 'replicas')['type'], prop(spec, 'replicas')['format']], ['integer', 'int32']);
    assert.deepEqual(schemas.schema(spec)?.['required'], ['selector', 'template']);
    assert.deepEqual(prop(spec, 'template')['allOf'], [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec' }]);
    const maxSurge = schemas.resolve(prop('io.k8s.api.apps.v1.RollingUpdateDeployment', 'maxSurge'));
    assert.equal(maxSurge?.['format'], 'int-or-string');
    assert.equal(prop('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry', 'fieldsV1')['x-kubernetes-preserve-unknown-fields'], true);
    assert.deepEqual(prop('io.k8s.api.core.v1.ConfigMap', 'data')['additionalProperties'], { type: 'string' });
    assert.deepEqual(schemas.componentOf({ group: 'apps', version: 'v1', kind: 'Deployment' }), 'io.k8s.api.apps.v1.Deployment');
  });
});
