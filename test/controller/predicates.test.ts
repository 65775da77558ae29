// Predicates: which events each change-detecting, selector and function predicate lets through, and
// the combinators.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  and,
  annotationChangedPredicate,
  generationChangedPredicate,
  labelChangedPredicate,
  labelSelectorPredicate,
  newPredicateFuncs,
  not,
  or,
  predicateFuncs,
  resourceVersionChangedPredicate,
} from 'kube-converge/controller';
import type { KubeObject } from 'kube-converge/meta';
import { parseLabelSelector, SelectorParseError } from 'kube-converge/meta';

const obj = (meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { namespace: 'ns', name: 'a', ...meta } });
const update = (o: Partial<KubeObject['metadata']>, n: Partial<KubeObject['metadata']>) => ({ objectOld: obj(o), objectNew: obj(n) });
const create = { object: obj(), isInInitialList: false };
const del = { object: obj(), deleteStateUnknown: false };
const generic = { object: obj() };

describe('change-detecting predicates', () => {
  it('resourceVersionChangedPredicate drops resyncs and passes real writes, status-only ones included', () => {
    assert.equal(resourceVersionChangedPredicate.update(update({ resourceVersion: '5' }, { resourceVersion: '5' })), false);
    assert.equal(resourceVersionChangedPredicate.update(update({ resourceVersion: '5' }, { resourceVersion: '6' })), true);
  });

  it('generationChangedPredicate drops status-only, metadata-only (finalizer removal) and resync updates', () => {
    const p = generationChangedPredicate;
    assert.equal(p.update(update({ generation: 1, resourceVersion: '1' }, { generation: 1, resourceVersion: '2' })), false);
    assert.equal(
      p.update(update({ generation: 3, finalizers: ['x'], deletionTimestamp: 't' }, { generation: 3, deletionTimestamp: 't' })),
      false,
    );
    assert.equal(p.update(update({ generation: 1 }, { generation: 2 })), true);
    // kinds that never set generation: every update is dropped
    assert.equal(p.update(update({ resourceVersion: '1' }, { resourceVersion: '2' })), false);
  });

  it('labelChangedPredicate compares label maps by content, an absent map equal to an empty one', () => {
    assert.equal(labelChangedPredicate.update(update({}, { labels: {} })), false);
    assert.equal(labelChangedPredicate.update(update({ labels: { a: '1' } }, { labels: { a: '1' } })), false);
    assert.equal(labelChangedPredicate.update(update({ labels: { a: '1' } }, { labels: { a: '2' } })), true);
    assert.equal(labelChangedPredicate.update(update({ labels: { a: '1' } }, { labels: { b: '1' } })), true);
    assert.equal(labelChangedPredicate.update(update({ labels: { a: '1' } }, {})), true);
  });

  it('annotationChangedPredicate compares annotations the same way', () => {
    assert.equal(annotationChangedPredicate.update(update({ annotations: { a: '1' } }, { annotations: { a: '1' } })), false);
    assert.equal(annotationChangedPredicate.update(update({}, { annotations: { a: '' } })), true);
  });

  it('change detectors pass create, delete and generic events', () => {
    for (const p of [resourceVersionChangedPredicate, generationChangedPredicate, labelChangedPredicate, annotationChangedPredicate]) {
      assert.equal(p.create(create), true);
      assert.equal(p.delete(del), true);
      assert.equal(p.generic(generic), true);
    }
  });
});

describe('function and selector predicates', () => {
  it('predicateFuncs passes every event type it was given no function for', () => {
    const p = predicateFuncs({ create: () => false });
    assert.equal(p.create(create), false);
    assert.equal(p.update(update({}, {})), true);
    assert.equal(p.delete(del), true);
    assert.equal(p.generic(generic), true);
  });

  it('newPredicateFuncs filters on the object, and on the new object for updates', () => {
    const p = newPredicateFuncs((o) => o.metadata.name === 'keep');
    assert.equal(p.create({ object: obj({ name: 'keep' }), isInInitialList: true }), true);
    assert.equal(p.update(update({ name: 'keep' }, { name: 'other' })), false);
    assert.equal(p.update(update({ name: 'other' }, { name: 'keep' })), true);
    assert.equal(p.delete({ object: obj({ name: 'other' }), deleteStateUnknown: true }), false);
  });

  it('labelSelectorPredicate accepts a parsed selector or a LabelSelector struct', () => {
    const parsed = labelSelectorPredicate(parseLabelSelector('app=web,tier!=db'));
    assert.equal(parsed.create({ object: obj({ labels: { app: 'web' } }), isInInitialList: false }), true);
    assert.equal(parsed.create({ object: obj({ labels: { app: 'web', tier: 'db' } }), isInInitialList: false }), false);
    const struct = labelSelectorPredicate({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] });
    assert.equal(struct.update(update({ labels: { app: 'x' } }, { labels: { app: 'api' } })), true);
    assert.equal(struct.generic({ object: obj() }), false);
    assert.equal(labelSelectorPredicate({}).generic({ object: obj() }), true, '{} selects everything');
  });

  it('labelSelectorPredicate rejects an invalid struct when built', () => {
    assert.throws(() => labelSelectorPredicate({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }), SelectorParseError);
  });
});

describe('predicate combinators', () => {
  const yes = predicateFuncs({});
  const no = predicateFuncs({ create: () => false, update: () => false, delete: () => false, generic: () => false });

  it('and() passes everything and or() passes nothing when given no predicates', () => {
    assert.equal(and().create(create), true);
    assert.equal(or().create(create), false);
  });

  it('and, or and not combine per event type and short-circuit', () => {
    let calls = 0;
    const counting = predicateFuncs({ update: () => (calls++, true) });
    assert.equal(and(no, counting).update(update({}, {})), false);
    assert.equal(or(yes, counting).update(update({}, {})), true);
    assert.equal(calls, 0);
    assert.equal(not(no).delete(del), true);
    const onlyCreates = predicateFuncs({ update: () => false, delete: () => false, generic: () => false });
    assert.equal(or(onlyCreates, generationChangedPredicate).update(update({ generation: 1 }, { generation: 2 })), true);
    assert.equal(or(onlyCreates, generationChangedPredicate).update(update({ generation: 1 }, { generation: 1 })), false);
  });
});
