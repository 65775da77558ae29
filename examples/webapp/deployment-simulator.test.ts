// The deployment simulator that stands in for kube-controller-manager in tests and the demo: what it
// writes to a Deployment's status, and when.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DeploymentResource, ObjectOf } from 'kube-converge/meta';
import { nextSimulatedStatus } from './deployment-simulator.js';

type Deployment = ObjectOf<typeof DeploymentResource>;
const deployment = (generation: number, replicas: number, status?: Deployment['status']): Deployment => ({
  metadata: { name: 'd', namespace: 'default', generation },
  spec: { replicas, selector: {}, template: {} },
  ...(status ? { status } : {}),
});

describe('deployment simulator (test and demo support)', () => {
  it('observes a new generation before any replica moves, then readies one replica per step', () => {
    let d = deployment(1, 2);
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = nextSimulatedStatus(d, false);
      seen.push(`${s.observedGeneration}:${s.readyReplicas}/${s.updatedReplicas}/${s.replicas}`);
      d = { ...d, status: s };
    }
    assert.deepEqual(seen, ['1:0/0/0', '1:1/1/1', '1:2/2/2', '1:2/2/2']);
  });

  it('restarts updatedReplicas when the pod template changed, and scales down at once', () => {
    const ready = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 };
    assert.deepEqual(nextSimulatedStatus(deployment(2, 3, ready), true), { ...ready, observedGeneration: 2, updatedReplicas: 0 });
    assert.deepEqual(nextSimulatedStatus(deployment(2, 1, ready), false), {
      observedGeneration: 2,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
  });
});
