// Desired states drawn from a schema: a seed names one sequence, every value obeys the schema's bounds
// (the API server accepts every spec), and the draws cover what Acto's inputs cover: boundary values,
// optional fields set and unset, enum changes, lists grown and shrunk, and changes rolled back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { specSequence, validateAgainstCrd, type SpecSchema } from 'kube-converge/testing';
import { Widget } from './catalogue/widget.js';

const crd = Widget.crd();
const schema = crd.spec.versions[0]!.schema!.openAPIV3Schema!.properties!['spec'] as SpecSchema;

describe('specSequence', () => {
  it('draws the same sequence from the same seed, and starts every sequence at the base spec', () => {
    for (const seed of [1, 7, 60, 61, 500]) assert.deepEqual(specSequence(schema, seed), specSequence(schema, seed));
    const bases = new Set(Array.from({ length: 80 }, (_, i) => JSON.stringify(specSequence(schema, i + 1)[0])));
    assert.deepEqual([...bases], [JSON.stringify({ image: 'v' })]);
  });

  it('writes only specs the API server accepts', () => {
    for (let seed = 1; seed <= 150; seed++) {
      for (const spec of specSequence(schema, seed)) {
        const r = validateAgainstCrd(crd, {
          apiVersion: Widget.apiVersion,
          kind: 'Widget',
          metadata: { name: 'w', namespace: 'default' },
          spec,
        });
        assert.ok(r.valid, `seed ${seed}: ${JSON.stringify(spec)}: ${r.message}`);
      }
    }
  });

  it('covers bounds, set and unset fields, enum values, list growth and shrink, and roll-backs', () => {
    const specs = Array.from({ length: 150 }, (_, i) => specSequence(schema, i + 1));
    const all = specs.flat();
    const seen = (p: (s: Record<string, unknown>) => boolean) => all.some(p);
    assert.ok(seen((s) => s['replicas'] === 0) && seen((s) => s['replicas'] === 5), 'both bounds of replicas');
    assert.ok(seen((s) => s['mode'] === 'fast') && seen((s) => s['mode'] === 'safe'), 'every enum value');
    assert.ok(
      seen((s) => Array.isArray(s['ports']) && s['ports'].length === 0),
      'an empty list',
    );
    assert.ok(
      seen((s) => Array.isArray(s['ports']) && s['ports'].length === 3),
      'a list at maxItems',
    );
    assert.ok(
      seen((s) => typeof s['image'] === 'string' && s['image'].length === 20),
      'a string at maxLength',
    );
    const rolledBack = specs.filter(
      (seq) => seq.length >= 3 && JSON.stringify(seq[seq.length - 1]) === JSON.stringify(seq[seq.length - 3]),
    );
    assert.ok(rolledBack.length > 0, 'a change rolled back');
    assert.ok(
      specs.some((seq) => seq.length >= 3 && !rolledBack.includes(seq)),
      'longer random walks',
    );
  });

  it('refuses a seed below 1', () => {
    assert.throws(() => specSequence(schema, 0), /integer from 1/);
  });
});
