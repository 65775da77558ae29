// Imports the private builtin-schemas/ face: the one walk a built-in request body gets, called directly.
// One walk over a built-in body finds its first Go type error and lists its unknown fields, changing
// nothing; the write pipeline drops the listed fields later (after admission saw them).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemas, dropFields, inspectBody } from '../../src/apiserver/builtin-schemas/index.js';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';

const body = (spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labelz: { a: 'b' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { spec: { containers: [{ name: 'app', image: 'nginx', imagePullPolcy: 'Always' }] } },
    ...spec,
  },
});

describe('the walk over a built-in body', () => {
  it('lists unknown fields in body order with list indexes, changes nothing, and leaves the drop to dropFields', () => {
    const obj = body({ replica: 3 });
    const before = structuredClone(obj);
    const found = inspectBody(builtinSchemas(), DEPLOYMENT, obj, { types: true });
    assert.equal(found.typeError, undefined);
    assert.deepEqual(obj, before);
    assert.deepEqual(dropFields(found.unknown), ['metadata.labelz', 'spec.template.spec.containers[0].imagePullPolcy', 'spec.replica']);
    const dropped = structuredClone(before) as Record<string, any>;
    delete dropped.metadata.labelz;
    delete dropped.spec.replica;
    delete dropped.spec.template.spec.containers[0].imagePullPolcy;
    assert.deepEqual(obj, dropped);
  });

  it('stops at the first type error, in body order, in the Go decoder’s words; without types it lists past it', () => {
    const obj = body({ replicas: 'three', paused: 'yes', replica: 3 });
    const typed = inspectBody(builtinSchemas(), DEPLOYMENT, obj, { types: true });
    assert.equal(typed.typeError, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.deepEqual(
      typed.unknown.map((u) => u.path),
      ['metadata.labelz', 'spec.template.spec.containers[0].imagePullPolcy'],
      'the fields before the error',
    );
    const untyped = inspectBody(builtinSchemas(), DEPLOYMENT, obj, { types: false });
    assert.equal(untyped.typeError, undefined);
    assert.deepEqual(
      untyped.unknown.map((u) => u.path),
      ['metadata.labelz', 'spec.template.spec.containers[0].imagePullPolcy', 'spec.replica'],
    );
  });
});
