// Imports the private patch/ face: unit tests of strategic merge patch.
// Strategic merge patch on built-in kinds: merge keys, directives and element order, as kubectl apply sends them.
// A unit test of the pure patch function, so it imports the patch folder's face, not the layer's index.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch, supportsStrategicMerge, PatchError } from '../../src/apiserver/patch/index.js';

const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };
const POD = { group: '', version: 'v1', kind: 'Pod' };
const SERVICE = { group: '', version: 'v1', kind: 'Service' };

const deployment = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', finalizers: ['a', 'b'] },
  spec: { replicas: 1, template: { metadata: { labels: { app: 'web' } }, spec: { containers, ...extra } } },
});
type Deployment = ReturnType<typeof deployment>;
const containersOf = (d: unknown) => (d as Deployment).spec.template.spec.containers;

describe('strategic merge patch', () => {
  it('merges the container list by name instead of replacing it', () => {
    const live = deployment([
      { name: 'app', image: 'app:1', ports: [{ containerPort: 80 }] },
      { name: 'sidecar', image: 'side:1' },
    ]);
    const out = applyStrategicMergePatch(
      live,
      { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } },
      DEPLOYMENT,
    );
    assert.deepEqual(containersOf(out), [
      { name: 'app', image: 'app:2', ports: [{ containerPort: 80 }] },
      { name: 'sidecar', image: 'side:1' },
    ]);
  });

  it('merges nested keyed lists: env by name, ports by containerPort, volumeMounts by mountPath', () => {
    const live = deployment([
      {
        name: 'app',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80, name: 'http' }],
        volumeMounts: [{ mountPath: '/data', name: 'd' }],
      },
    ]);
    const out = applyStrategicMergePatch(
      live,
      {
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'app',
                  env: [
                    { name: 'B', value: '20' },
                    { name: 'C', value: '3' },
                  ],
                  ports: [{ containerPort: 443 }],
                  volumeMounts: [{ mountPath: '/data', readOnly: true }],
                },
              ],
            },
          },
        },
      },
      DEPLOYMENT,
    );
    assert.deepEqual(containersOf(out), [
      {
        name: 'app',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '20' },
          { name: 'C', value: '3' },
        ],
        ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }],
        volumeMounts: [{ mountPath: '/data', name: 'd', readOnly: true }],
      },
    ]);
  });

  it('deletes a field set to null, and a list element marked $patch: delete', () => {
    const live = deployment([
      { name: 'app', image: 'app:1', args: ['x'] },
      { name: 'old', image: 'old:1' },
    ]);
    const out = applyStrategicMergePatch(
      live,
      {
        spec: {
          replicas: null,
          template: {
            spec: {
              containers: [
                { name: 'app', args: null },
                { name: 'old', $patch: 'delete' },
              ],
            },
          },
        },
      },
      DEPLOYMENT,
    ) as Deployment;
    assert.equal('replicas' in out.spec, false);
    assert.deepEqual(out.spec.template.spec.containers, [{ name: 'app', image: 'app:1' }]);
  });

  it('orders elements by $setElementOrder and keeps elements only the server has in place', () => {
    const live = deployment([
      { name: 'a', image: 'a' },
      { name: 'injected', image: 'i' },
      { name: 'b', image: 'b' },
    ]);
    const out = applyStrategicMergePatch(
      live,
      {
        spec: {
          template: {
            spec: {
              '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }, { name: 'c' }],
              containers: [{ name: 'c', image: 'c' }],
            },
          },
        },
      },
      DEPLOYMENT,
    );
    assert.deepEqual(
      containersOf(out).map((c) => (c as { name: string }).name),
      ['injected', 'b', 'a', 'c'],
    );
  });

  it('applies what client-side kubectl apply sends, and a second identical apply changes nothing', () => {
    const live = deployment([{ name: 'app', image: 'app:1' }]);
    const kubectlPatch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}\n' } },
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'app', image: 'app:2' }] } } },
    };
    const once = applyStrategicMergePatch(live, kubectlPatch, DEPLOYMENT);
    const twice = applyStrategicMergePatch(once, kubectlPatch, DEPLOYMENT);
    assert.deepEqual(twice, once);
    assert.deepEqual(containersOf(once), [{ name: 'app', image: 'app:2' }]);
    assert.equal(
      (once as { metadata: { annotations: Record<string, string> } }).metadata.annotations[
        'kubectl.kubernetes.io/last-applied-configuration'
      ],
      '{"kind":"Deployment"}\n',
    );
  });

  it('replaces a map marked $patch: replace and a list holding a $patch: replace element', () => {
    const live = deployment([{ name: 'a' }, { name: 'b' }]);
    const out = applyStrategicMergePatch(
      live,
      {
        spec: {
          template: {
            metadata: { $patch: 'replace', labels: { only: 'this' } },
            spec: { containers: [{ $patch: 'replace' }, { name: 'z', image: 'z' }] },
          },
        },
      },
      DEPLOYMENT,
    ) as Deployment;
    assert.deepEqual(out.spec.template.metadata, { labels: { only: 'this' } });
    assert.deepEqual(out.spec.template.spec.containers, [{ name: 'z', image: 'z' }]);
  });

  it('deletes a whole map marked $patch: delete', () => {
    const out = applyStrategicMergePatch(
      deployment([]),
      { spec: { template: { metadata: { $patch: 'delete' } } } },
      DEPLOYMENT,
    ) as Deployment;
    assert.equal('metadata' in out.spec.template, false);
  });

  it('merges finalizers as a set and removes values named in $deleteFromPrimitiveList', () => {
    const out = applyStrategicMergePatch(
      deployment([]),
      { metadata: { finalizers: ['b', 'c'], '$deleteFromPrimitiveList/finalizers': ['a'] } },
      DEPLOYMENT,
    ) as Deployment;
    assert.deepEqual(out.metadata.finalizers, ['b', 'c']);
  });

  it('clears the fields not listed in $retainKeys (deployment strategy switch)', () => {
    const live = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const out = applyStrategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, DEPLOYMENT);
    assert.deepEqual(out, { spec: { strategy: { type: 'Recreate' } } });
    assert.throws(
      () => applyStrategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], other: 1 } } }, DEPLOYMENT),
      (e: unknown) => e instanceof PatchError && e.httpCode === 422,
    );
  });

  it('replaces lists that have no merge strategy, such as tolerations', () => {
    const live = { spec: { tolerations: [{ key: 'a' }, { key: 'b' }], containers: [] } };
    const out = applyStrategicMergePatch(live, { spec: { tolerations: [{ key: 'c' }] } }, POD);
    assert.deepEqual(out, { spec: { tolerations: [{ key: 'c' }], containers: [] } });
  });

  it('merges service ports by port', () => {
    const live = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const out = applyStrategicMergePatch(live, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, SERVICE);
    assert.deepEqual(out, { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } });
  });

  it('rejects keyed list elements without their merge key and unknown $patch values with 400', () => {
    const missingKey = () =>
      applyStrategicMergePatch(deployment([]), { spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, DEPLOYMENT);
    assert.throws(
      missingKey,
      (e: unknown) => e instanceof PatchError && e.httpCode === 400 && /does not contain declared merge key: name/.test(e.message),
    );
    assert.throws(
      () => applyStrategicMergePatch({}, { spec: { $patch: 'explode' } }, POD),
      (e: unknown) => e instanceof PatchError && e.httpCode === 400,
    );
    assert.throws(
      () => applyStrategicMergePatch({}, [], POD),
      (e: unknown) => e instanceof PatchError && e.httpCode === 400,
    );
  });

  it('orders a list by $setElementOrder even when the patch does not touch the list itself', () => {
    const live = deployment([
      { name: 'a', image: 'a' },
      { name: 'b', image: 'b' },
    ]);
    const out = applyStrategicMergePatch(
      live,
      { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } } } },
      DEPLOYMENT,
    );
    assert.deepEqual(
      containersOf(out).map((c) => (c as { name: string }).name),
      ['b', 'a'],
    );
  });

  it('orders primitive set lists by $setElementOrder too', () => {
    const out = applyStrategicMergePatch(
      deployment([]),
      { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } },
      DEPLOYMENT,
    ) as Deployment;
    assert.deepEqual(out.metadata.finalizers, ['c', 'b', 'a']);
  });

  it('creates a keyed list that did not exist, dropping directives and nulls from the new elements', () => {
    const out = applyStrategicMergePatch(
      { spec: {} },
      { spec: { containers: [{ name: 'a', image: 'x', args: null, $patch: 'merge' }] } },
      POD,
    );
    assert.deepEqual(out, { spec: { containers: [{ name: 'a', image: 'x' }] } });
  });

  it('ignores $patch: delete for an element that is not there', () => {
    const live = deployment([{ name: 'a', image: 'a' }]);
    const out = applyStrategicMergePatch(
      live,
      { spec: { template: { spec: { containers: [{ name: 'gone', $patch: 'delete' }] } } } },
      DEPLOYMENT,
    );
    assert.deepEqual(containersOf(out), [{ name: 'a', image: 'a' }]);
  });

  it('switches a volume source with $retainKeys inside a keyed list element, as kubectl apply sends it', () => {
    const live = {
      spec: {
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'other', secret: { secretName: 's' } },
        ],
      },
    };
    const out = applyStrategicMergePatch(
      live,
      { spec: { volumes: [{ $retainKeys: ['configMap', 'name'], name: 'data', configMap: { name: 'cfg' } }] } },
      POD,
    );
    assert.deepEqual(out, {
      spec: {
        volumes: [
          { name: 'data', configMap: { name: 'cfg' } },
          { name: 'other', secret: { secretName: 's' } },
        ],
      },
    });
  });

  it('never mutates the live object', () => {
    const live = deployment([{ name: 'app', image: 'app:1' }]);
    applyStrategicMergePatch(
      live,
      { metadata: { finalizers: ['z'] }, spec: { template: { spec: { containers: [{ name: 'app', image: 'x' }] } } } },
      DEPLOYMENT,
    );
    assert.deepEqual(live, deployment([{ name: 'app', image: 'app:1' }]));
  });

  it('is supported for built-in kinds only', () => {
    assert.equal(supportsStrategicMerge(DEPLOYMENT), true);
    assert.equal(supportsStrategicMerge({ group: '', version: 'v1', kind: 'ConfigMap' }), true);
    assert.equal(supportsStrategicMerge({ group: 'platform.converge.dev', version: 'v1alpha1', kind: 'WebApp' }), false);
  });
});
