// Imports meta's private list of built-in resources, to check every one's GVK and GVR.
// Resource descriptors: defineResource's validation, the built-in kinds and their GVK/GVR.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  defineResource,
  gvkOfResource,
  gvrOfResource,
  ConfigMapResource,
  DeploymentResource,
  NamespaceResource,
  LeaseResource,
  InvalidOptionError,
  type ObjectOf,
} from 'kube-converge/meta';
import { builtinResources } from '../../src/meta/resource.js';

interface WidgetSpec {
  size: number;
}
interface WidgetStatus {
  ready: boolean;
}

describe('resource descriptors', () => {
  it('derives apiVersion from group and version and freezes the descriptor', () => {
    const Widget = defineResource<WidgetSpec, WidgetStatus>({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      namespaced: true,
    });
    assert.equal(Widget.apiVersion, 'example.com/v1');
    assert.equal(Object.isFrozen(Widget), true);
    assert.throws(() => {
      (Widget as { plural: string }).plural = 'x';
    }, TypeError);
    const w: ObjectOf<typeof Widget> = { metadata: { name: 'w' }, spec: { size: 1 }, status: { ready: true } };
    assert.equal(w.spec.size, 1);
  });

  it('uses the bare version for the core group', () => {
    assert.equal(defineResource({ group: '', version: 'v1', kind: 'Thing', plural: 'things', namespaced: false }).apiVersion, 'v1');
  });

  it('rejects empty version, kind or plural and an upper-case plural', () => {
    const ok = { group: 'g', version: 'v1', kind: 'K', plural: 'ks', namespaced: true };
    for (const f of ['version', 'kind', 'plural'] as const) {
      assert.throws(
        () => defineResource({ ...ok, [f]: '' }),
        (e: unknown) => e instanceof InvalidOptionError && e.path === `resource.${f}`,
      );
    }
    assert.throws(() => defineResource({ ...ok, plural: 'Ks' }), /must be lower case/);
  });

  it('gives GVK and GVR views of a descriptor', () => {
    assert.deepEqual(gvkOfResource(DeploymentResource), { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.deepEqual(gvrOfResource(ConfigMapResource), { group: '', version: 'v1', resource: 'configmaps' });
  });

  it('predefines the built-in kinds with their scope and group', () => {
    assert.equal(NamespaceResource.namespaced, false);
    assert.equal(ConfigMapResource.namespaced, true);
    assert.equal(LeaseResource.apiVersion, 'coordination.k8s.io/v1');
    assert.equal(Object.isFrozen(builtinResources), true);
    const seen = new Set(builtinResources.map((r) => `${r.apiVersion}/${r.plural}`));
    assert.equal(seen.size, builtinResources.length, 'no two built-ins share group, version and plural');
    for (const r of builtinResources) assert.equal(Object.isFrozen(r), true);
  });
});
