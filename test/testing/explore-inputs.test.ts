// exploreInputs' shrinking and replay: a failing sequence of specs shrinks to the fewest steps and the
// smallest last change that still fail, and `replay` runs a given sequence exactly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exploreInputs } from 'kube-converge/testing';
import { External, Widget, reconciled } from './catalogue/widget.js';
import { rollbackNotUndone, zeroTakenForUnset } from './catalogue/render-operator.js';
import type { CatalogueEntry } from './catalogue/widget.js';

function replay(entry: CatalogueEntry, specs: Record<string, unknown>[]) {
  const external = new External();
  return exploreInputs(entry.setup(external, false), {
    resource: Widget,
    seeds: [1],
    replay: specs,
    converged: reconciled,
    invariants: entry.invariants(external),
  });
}

describe('exploreInputs', () => {
  it('shrinks a failing sequence to the one field whose value the operator mishandles', async () => {
    const r = await replay(zeroTakenForUnset, [{ image: 'v' }, { image: 'zzzz', replicas: 0, mode: 'fast', tags: ['a'] }]);
    assert.ok(r.failure, 'found');
    assert.deepEqual(r.failure.minimal, [{ image: 'v', replicas: 0 }]);
    assert.match(r.failure.reason, /the ConfigMaps reflect the spec.*"replicas":"1"/);
    assert.match(r.failure.report, /replay it with seeds: \[1\]/);
  });

  it('keeps the roll-back a bug needs, and names its last change', async () => {
    const r = await replay(rollbackNotUndone, [{ image: 'v' }, { image: 'v', exposed: true, replicas: 2 }, { image: 'v' }]);
    assert.ok(r.failure, 'found');
    assert.deepEqual(r.failure.minimal, [{ image: 'v', exposed: true }, { image: 'v' }]);
    assert.deepEqual(r.failure.change, ['exposed: true → unset']);
  });
});
