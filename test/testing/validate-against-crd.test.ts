// validateAgainstCrd: an object checked against a CRD's schema and CEL rules in memory, with the
// causes and message the server's 422 would carry, transition rules only when an old object is
// given, defaults applied, unknown fields reported, and a CRD the server would refuse as an error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateAgainstCrd, type CustomResourceDefinition } from 'kube-converge/testing';
import { InvalidOptionError } from 'kube-converge/meta';
import { ROUTES_GROUP, webRouteCrd } from '../apiserver/fixtures/route-crds.js';
import { specCrd } from '../apiserver/fixtures/spec-crd.js';

function rangeCrd(rules: unknown[] = [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }]): CustomResourceDefinition {
  return specCrd('Range', 'ranges', {
    properties: { min: { type: 'integer', default: 0 }, max: { type: 'integer' }, mode: { type: 'string' } },
    'x-kubernetes-validations': rules,
  });
}

const range = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Range', metadata: { name: 'r' }, spec });

describe('validateAgainstCrd', () => {
  it('refuses {min: 5, max: 1} under self.min <= self.max with the message a 422 would carry', () => {
    const r = validateAgainstCrd(rangeCrd(), range({ min: 5, max: 1 }));
    assert.equal(r.valid, false);
    assert.deepEqual(r.causes, [
      { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "object": min must not exceed max' },
    ]);
    assert.equal(r.message, 'Range.example.com "r" is invalid: spec: Invalid value: "object": min must not exceed max');
  });

  it('accepts a valid object and returns it defaulted, with unknown fields reported and pruned', () => {
    const r = validateAgainstCrd(rangeCrd(), range({ max: 3, extra: true }));
    assert.equal(r.valid, true);
    assert.equal(r.message, undefined);
    assert.deepEqual(r.object.spec, { min: 0, max: 3 });
    assert.deepEqual(r.unknownFields, ['spec.extra']);
  });

  it('runs transition rules only when the old object is given', () => {
    const crd = rangeCrd([{ rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' }]);
    assert.equal(validateAgainstCrd(crd, range({ max: 1, mode: 'a' })).valid, true);
    const update = validateAgainstCrd(crd, range({ max: 1, mode: 'b' }), range({ max: 1, mode: 'a' }));
    assert.equal(update.valid, false);
    assert.equal(update.causes[0]?.message, 'Invalid value: "object": mode is immutable');
  });

  it('reports a failing rule on a value the update left unchanged as a warning (ratcheting)', () => {
    const old = range({ min: 5, max: 1, mode: 'a' });
    const r = validateAgainstCrd(rangeCrd(), range({ min: 5, max: 1, mode: 'a' }), old);
    assert.equal(r.valid, true);
    assert.deepEqual(r.warnings, ['spec: Invalid value: "object": min must not exceed max']);
  });

  it('throws for a CRD whose rule does not compile, naming the rule', () => {
    assert.throws(
      () => validateAgainstCrd(rangeCrd([{ rule: 'self.nope > 0' }]), range({ max: 1 })),
      (e: unknown) => e instanceof InvalidOptionError && /undefined field 'nope'/.test(e.message),
    );
  });

  it('throws for a version the CRD does not have', () => {
    assert.throws(() => validateAgainstCrd(rangeCrd(), range({}), undefined, { version: 'v9' }), InvalidOptionError);
  });

  it('checks a route against a route CRD shaped like real-world ones without a server', () => {
    const crd = webRouteCrd();
    const route = (filters: unknown[]) => ({
      apiVersion: `${ROUTES_GROUP}/v1`,
      kind: 'WebRoute',
      metadata: { name: 'web' },
      spec: { parents: [{ name: 'gw' }], rules: [{ filters, backends: [{ name: 'web', port: 80 }] }] },
    });
    assert.equal(validateAgainstCrd(crd, route([])).valid, true);
    const bad = validateAgainstCrd(crd, route([{ type: 'SetHeaders' }]));
    assert.equal(bad.valid, false);
    assert.match(bad.message ?? '', /spec\.rules\[0\]\.filters\[0\]: Required value: a SetHeaders filter needs its setHeaders field/);
  });
});
