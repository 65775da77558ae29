// Drift detection on the fields the WebApp operator owns: server-set defaults are not drift, a changed
// owned field is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coversOwned, mergeOwned } from './owned-fields.js';

describe('owned-field drift detection', () => {
  it('treats fields the server defaulted, inside objects and list items, as no drift', () => {
    const desired = {
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'a:1', ports: [{ containerPort: 80 }] }] } } },
    };
    const current = {
      spec: {
        replicas: 2,
        revisionHistoryLimit: 10,
        template: {
          spec: {
            restartPolicy: 'Always',
            containers: [{ name: 'app', image: 'a:1', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
          },
        },
      },
    };
    assert.equal(coversOwned(current, desired), true);
    const merged = structuredClone(current);
    mergeOwned(merged, desired);
    assert.deepEqual(merged, current, 'nothing to write');
  });

  it('replaces an owned list that differs in length or content, and leaves other fields and map keys alone', () => {
    const current = {
      metadata: { labels: { app: 'x', team: 'payments' } },
      spec: {
        replicas: 1,
        paused: false,
        containers: [
          { name: 'app', image: 'a:1' },
          { name: 'sidecar', image: 's:1' },
        ],
      },
    };
    const desired = { metadata: { labels: { app: 'x' } }, spec: { replicas: 3, containers: [{ name: 'app', image: 'a:2' }] } };
    assert.equal(coversOwned(current, desired), false);
    mergeOwned(current, desired);
    assert.deepEqual(current, {
      metadata: { labels: { app: 'x', team: 'payments' } },
      spec: { replicas: 3, paused: false, containers: [{ name: 'app', image: 'a:2' }] },
    });
  });

  it('does not share structure with the desired object', () => {
    const desired = { spec: { list: [{ a: 1 }] } };
    const target: Record<string, unknown> = { spec: {} };
    mergeOwned(target, desired);
    desired.spec.list[0]!.a = 2;
    assert.deepEqual(target, { spec: { list: [{ a: 1 }] } });
  });
});
