// Status conditions (set, find, remove, compare) and the RFC 3339 timestamps they carry.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  setStatusCondition,
  findStatusCondition,
  removeStatusCondition,
  isStatusConditionTrue,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  formatTimestamp,
  InvalidOptionError,
  type Condition,
} from 'kube-converge/meta';

const t0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const t1 = t0 + 60_000;

describe('status conditions', () => {
  it('appends a new condition stamped with now as RFC 3339 whole seconds', () => {
    const cs: Condition[] = [];
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'False', reason: 'Starting', observedGeneration: 2 }, t0), true);
    assert.deepEqual(cs, [
      {
        type: 'Ready',
        status: 'False',
        reason: 'Starting',
        message: '',
        lastTransitionTime: '2026-01-02T03:04:05Z',
        observedGeneration: 2,
      },
    ]);
  });

  it('keeps a lastTransitionTime given by the caller', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'Ready', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }, t0);
    assert.equal(cs[0]!.lastTransitionTime, '2020-01-01T00:00:00Z');
  });

  it('moves lastTransitionTime only when the status changes', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'Ready', status: 'False', reason: 'A' }, t0);
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'False', reason: 'B', message: 'm' }, t1), true);
    assert.equal(cs[0]!.lastTransitionTime, '2026-01-02T03:04:05Z');
    assert.equal(cs[0]!.reason, 'B');
    assert.equal(cs[0]!.message, 'm');
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'True', reason: 'B', message: 'm' }, t1), true);
    assert.equal(cs[0]!.lastTransitionTime, '2026-01-02T03:05:05Z');
  });

  it('reports no change when nothing differs, and changes the entry in place', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'Ready', status: 'True', reason: 'Ok', message: 'fine', observedGeneration: 3 }, t0);
    const entry = cs[0];
    assert.equal(
      setStatusCondition(cs, { type: 'Ready', status: 'True', reason: 'Ok', message: 'fine', observedGeneration: 3 }, t1),
      false,
    );
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'True', reason: 'Ok', message: 'fine', observedGeneration: 4 }, t1), true);
    assert.equal(cs[0], entry);
    assert.equal(cs[0]!.observedGeneration, 4);
  });

  it('takes omitted reason, message and observedGeneration as empty, as Go zero values', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'Ready', status: 'True', reason: 'Ok', message: 'x', observedGeneration: 5 }, t0);
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'True' }, t1), true);
    assert.deepEqual(cs[0], { type: 'Ready', status: 'True', reason: '', message: '', lastTransitionTime: '2026-01-02T03:04:05Z' });
    assert.equal('observedGeneration' in cs[0]!, false);
  });

  it('fills in a missing lastTransitionTime on an existing entry', () => {
    const cs = [{ type: 'Ready', status: 'True', reason: '', message: '' }] as unknown as Condition[];
    assert.equal(setStatusCondition(cs, { type: 'Ready', status: 'True' }, new Date(t1)), true);
    assert.equal(cs[0]!.lastTransitionTime, '2026-01-02T03:05:05Z');
  });

  it('keeps the order of other conditions and appends new types', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'A', status: 'True' }, t0);
    setStatusCondition(cs, { type: 'B', status: 'True' }, t0);
    setStatusCondition(cs, { type: 'A', status: 'False' }, t1);
    assert.deepEqual(
      cs.map((c) => c.type),
      ['A', 'B'],
    );
  });

  it('finds and tests conditions, treating absent and Unknown as neither true nor false', () => {
    const cs: Condition[] = [];
    setStatusCondition(cs, { type: 'Ready', status: 'True' }, t0);
    setStatusCondition(cs, { type: 'Degraded', status: 'False' }, t0);
    setStatusCondition(cs, { type: 'Progressing', status: 'Unknown' }, t0);
    assert.equal(findStatusCondition(cs, 'Ready')?.status, 'True');
    assert.equal(findStatusCondition(cs, 'Nope'), undefined);
    assert.equal(findStatusCondition(undefined, 'Ready'), undefined);
    assert.equal(isStatusConditionTrue(cs, 'Ready'), true);
    assert.equal(isStatusConditionFalse(cs, 'Degraded'), true);
    assert.equal(isStatusConditionTrue(cs, 'Progressing'), false);
    assert.equal(isStatusConditionFalse(cs, 'Progressing'), false);
    assert.equal(isStatusConditionTrue(cs, 'Nope'), false);
    assert.equal(isStatusConditionFalse(undefined, 'Nope'), false);
    assert.equal(isStatusConditionPresentAndEqual(cs, 'Progressing', 'Unknown'), true);
  });

  it('removes every condition of a type in place and reports whether it removed one', () => {
    const cs = [
      { type: 'A', status: 'True', reason: '', message: '', lastTransitionTime: 'x' },
      { type: 'B', status: 'True', reason: '', message: '', lastTransitionTime: 'x' },
      { type: 'A', status: 'False', reason: '', message: '', lastTransitionTime: 'x' },
    ];
    const same = cs;
    assert.equal(removeStatusCondition(cs, 'A'), true);
    assert.equal(cs, same);
    assert.deepEqual(
      cs.map((c) => c.type),
      ['B'],
    );
    assert.equal(removeStatusCondition(cs, 'A'), false);
    assert.equal(removeStatusCondition([], 'A'), false);
  });
});

describe('timestamps', () => {
  it('formats as RFC 3339 UTC with truncated seconds', () => {
    assert.equal(formatTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 999)), '2026-01-02T03:04:05Z');
    assert.equal(formatTimestamp(new Date(0)), '1970-01-01T00:00:00Z');
    assert.equal(formatTimestamp(-1), '1969-12-31T23:59:59Z');
  });
  it('rejects an invalid time', () => {
    assert.throws(() => formatTimestamp(new Date('nope')), InvalidOptionError);
    assert.throws(() => formatTimestamp(Number.NaN), InvalidOptionError);
  });
});
