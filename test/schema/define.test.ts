// Imports schema's private pluralize, the rule the derived resource names follow.
// defineCustomResource: the descriptors and names it derives, the object type it carries, the CRD
// around the schemas, and the definition errors it reports at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { ObjectOf } from 'kube-converge/meta';
import { SchemaNotStructuralError, defineCustomResource } from 'kube-converge/schema';
import { isCustomResource } from '../../src/schema/internal.js';
import { Widget } from './widget.js';
import { pluralize } from '../../src/schema/define.js';

const spec = Type.Object({ size: Type.Integer() });

describe('defineCustomResource', () => {
  it('is the storage version descriptor, with one descriptor per version', () => {
    assert.equal(Widget.apiVersion, 'schema.converge.dev/v1');
    assert.equal(Widget.plural, 'widgets');
    assert.equal(Widget.namespaced, true);
    assert.equal(Widget.versions.v1beta1.apiVersion, 'schema.converge.dev/v1beta1');
    assert.equal(Widget.versions.v1.kind, 'Widget');
    assert.ok(Object.isFrozen(Widget));
    assert.ok(isCustomResource(Widget));
    assert.ok(!isCustomResource({ group: Widget.group, kind: Widget.kind }), 'a look-alike is not a definition');
  });

  it('carries the object type of its storage version (a wrong field is a type error)', () => {
    type W = ObjectOf<typeof Widget>;
    const w: W = { metadata: { name: 'a' }, spec: { color: 'green', replicas: 2, port: 'http', env: [{ name: 'A' }] } };
    // @ts-expect-error: 'purple' is not one of the colors
    const bad: W = { metadata: {}, spec: { color: 'purple', replicas: 1 } };
    type Old = ObjectOf<typeof Widget.versions.v1beta1>;
    const old: Old = { metadata: {}, spec: { color: 'anything' } };
    assert.ok(w && bad && old);
  });

  it('writes names, scope and versions into the CRD, the deprecated one with its warning', () => {
    const crd = Widget.crd();
    assert.equal(crd.metadata?.name, 'widgets.schema.converge.dev');
    assert.deepEqual(crd.spec.names, {
      kind: 'Widget',
      listKind: 'WidgetList',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wdg'],
      categories: ['converge'],
    });
    assert.equal(crd.spec.scope, 'Namespaced');
    const [beta, v1] = crd.spec.versions;
    assert.deepEqual(
      [beta?.name, beta?.storage, beta?.deprecated, beta?.deprecationWarning],
      ['v1beta1', false, true, 'schema.converge.dev/v1beta1 Widget is deprecated; use v1'],
    );
    assert.deepEqual(v1?.subresources, {
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    });
    assert.deepEqual(v1?.selectableFields, [{ jsonPath: '.spec.color' }]);
    assert.deepEqual(
      v1?.additionalPrinterColumns?.map((c) => c.name),
      ['Color', 'Replicas', 'Age'],
    );
    const root = v1?.schema?.openAPIV3Schema;
    assert.deepEqual(Object.keys(root?.properties ?? {}), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    assert.deepEqual(root?.required, ['spec']);
  });

  it('gives the same CRD every time', () => {
    assert.equal(JSON.stringify(Widget.crd()), JSON.stringify(Widget.crd()));
  });

  it('derives plural and singular from the kind by English rules unless given', () => {
    assert.deepEqual(['WebApp', 'Policy', 'Ingress', 'Box', 'Gateway', 'Match'].map(pluralize), [
      'webapps',
      'policies',
      'ingresses',
      'boxes',
      'gateways',
      'matches',
    ]);
    const d = defineCustomResource({
      group: 'a.example.dev',
      kind: 'Policy',
      scope: 'Cluster',
      versions: { v1: { spec, served: true, storage: true } },
    });
    assert.deepEqual([d.plural, d.definition.singular, d.namespaced], ['policies', 'policy', false]);
  });

  it('refuses no or two storage versions, bad version names and bad names, naming the field', () => {
    const bad = (input: Parameters<typeof defineCustomResource>[0], path: string) =>
      assert.throws(
        () => defineCustomResource(input),
        (e: unknown) => e instanceof SchemaNotStructuralError && e.path === path,
      );
    const v = (storage: boolean) => ({ spec, served: true, storage });
    bad({ group: 'a.example.dev', kind: 'A', scope: 'Namespaced', versions: { v1: v(false) } }, 'versions');
    bad({ group: 'a.example.dev', kind: 'A', scope: 'Namespaced', versions: { v1: v(true), v2: v(true) } }, 'versions');
    bad({ group: 'a.example.dev', kind: 'A', scope: 'Namespaced', versions: { latest: v(true) } }, 'versions.latest');
    bad({ group: 'example', kind: 'A', scope: 'Namespaced', versions: { v1: v(true) } }, 'group');
    bad({ group: 'a.example.dev', kind: 'lower', scope: 'Namespaced', versions: { v1: v(true) } }, 'kind');
    bad({ group: 'a.example.dev', kind: 'A', plural: 'As', scope: 'Namespaced', versions: { v1: v(true) } }, 'plural');
  });

  it('reports a spec that is not an object, and a non-structural field, when the CRD is built, with the version in the path', () => {
    const d = defineCustomResource({
      group: 'a.example.dev',
      kind: 'A',
      scope: 'Namespaced',
      versions: { v2: { spec: Type.String(), served: true, storage: true } },
    });
    assert.throws(
      () => d.crd(),
      (e: unknown) => e instanceof SchemaNotStructuralError && e.path === 'versions.v2.spec',
    );
    const u = defineCustomResource({
      group: 'a.example.dev',
      kind: 'B',
      scope: 'Namespaced',
      versions: { v1: { spec: Type.Object({ x: Type.Union([Type.String(), Type.Boolean()]) }), served: true, storage: true } },
    });
    assert.throws(() => u.crd(), /versions\.v1\.spec\.properties\.x\.anyOf: a union of string \| boolean/);
  });
});
