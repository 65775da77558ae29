// Imports meta's internal (private) face for deepFreezeFresh, the informer's freeze of a just-decoded object.
// deepFreeze makes cached objects immutable, throwing on mutation; clone gives a mutable deep copy.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { deepFreeze, clone, type DeepReadonly } from 'kube-converge/meta';
import { deepFreezeFresh } from '../../src/meta/internal.js';

const deployment = (): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
  },
});

function assertDeepFrozen(v: unknown, path = '$'): void {
  if (typeof v !== 'object' || v === null) return;
  assert.ok(Object.isFrozen(v), `${path} is not frozen`);
  for (const [k, e] of Object.entries(v)) assertDeepFrozen(e, `${path}.${k}`);
}

describe('deepFreeze', () => {
  it('freezes every nested object and array, so writes throw in strict mode', () => {
    const d = deepFreeze(deployment());
    assertDeepFrozen(d);
    assert.throws(() => {
      (d.metadata!.labels as Record<string, string>).app = 'x';
    }, TypeError);
    assert.throws(() => {
      (d.spec!.template.spec!.containers as unknown[]).push({});
    }, TypeError);
  });

  it('returns the same object and is idempotent', () => {
    const d = deployment();
    const f = deepFreeze(d);
    assert.equal(f, d);
    assert.equal(deepFreeze(f), d);
    assertDeepFrozen(d);
  });

  it('still descends into an object someone froze only shallowly', () => {
    const o = Object.freeze({ spec: { replicas: 1 }, items: [{ a: 1 }] });
    deepFreeze(o);
    assertDeepFrozen(o);
  });

  it('freezes a new object that shares an already frozen subtree', () => {
    const shared = deepFreeze({ labels: { a: 'b' } });
    const o = { metadata: shared, spec: { x: [1, 2] } };
    deepFreeze(o);
    assertDeepFrozen(o);
  });

  it('passes primitives and null through', () => {
    assert.equal(deepFreeze(3), 3);
    assert.equal(deepFreeze(null), null);
    assert.equal(deepFreeze('s'), 's');
  });
});

describe('deepFreezeFresh', () => {
  it('freezes a fresh object all the way down and returns it', () => {
    const d = deployment();
    assert.equal(deepFreezeFresh(d), d);
    assertDeepFrozen(d);
    assert.throws(() => {
      (d.spec!.template.spec!.containers[0]!.ports as unknown[]).push({});
    }, TypeError);
  });

  it('descends into shallow-frozen parts and freezes around an already deep-frozen subtree', () => {
    const shared = deepFreeze({ labels: { a: 'b' } });
    const o = { metadata: shared, spec: Object.freeze({ x: [1, 2], y: { z: 1 } }) };
    deepFreezeFresh(o);
    assertDeepFrozen(o);
  });

  it('leaves an object that deepFreeze later walks once and then remembers', () => {
    const d = deepFreezeFresh(deployment());
    assert.equal(deepFreeze(d), d);
    assert.equal(deepFreeze(d), d);
    assertDeepFrozen(d);
  });
});

describe('clone', () => {
  it('makes an equal, mutable deep copy that shares nothing with a frozen original', () => {
    const frozen: DeepReadonly<Deployment> = deepFreeze(deployment());
    const c = clone(frozen);
    assert.deepEqual(c, frozen);
    assert.equal(Object.isFrozen(c), false);
    assert.equal(Object.isFrozen(c.spec!.template.spec!.containers[0]), false);
    c.metadata!.labels!.app = 'changed';
    c.spec!.template.spec!.containers.push({ name: 'sidecar' });
    assert.equal(frozen.metadata!.labels!.app, 'web');
    assert.equal(frozen.spec!.template.spec!.containers.length, 1);
    const typed: Deployment = c;
    assert.ok(typed);
  });

  it('copies arrays, nested arrays, null, empty containers and undefined properties', () => {
    const v = { a: [1, [2, [3]], null, {}], b: null, c: [], d: undefined, e: '', f: 0, g: false };
    const c = clone(v);
    assert.deepEqual(c, v);
    assert.notEqual(c.a, v.a);
    assert.notEqual(c.a[1], v.a[1]);
    assert.equal('d' in c, true);
  });

  it('keeps a __proto__ key as data instead of changing the prototype', () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const c = clone(v);
    assert.equal(Object.getPrototypeOf(c), Object.prototype);
    assert.deepEqual(Object.keys(c), ['__proto__', 'x']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(c, '__proto__')?.value, { polluted: true });
  });

  it('passes primitives through', () => {
    assert.equal(clone(5), 5);
    assert.equal(clone(null), null);
    assert.equal(clone('x'), 'x');
  });
});
