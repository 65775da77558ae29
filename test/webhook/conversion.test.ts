// Hub-and-spoke conversion: any version to any other through the hub, metadata kept, round trips
// that lose nothing (and the helper that catches one that does), and the ConversionReview endpoint.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from 'kube-converge/meta';
import { defineResource } from 'kube-converge/meta';
import {
  convertObject,
  defineConversion,
  isLossless,
  roundTrip,
  serveConversion,
  spoke,
  type ConversionReview,
} from 'kube-converge/webhook';
import { AppV1, AppV1alpha1, recordingLogger, type AppSpecV1, type AppSpecV1alpha1 } from './helpers.js';

type V1 = KubeObject & { spec: AppSpecV1 };
type V1alpha1 = KubeObject & { spec: AppSpecV1alpha1 };
const AppV0 = defineResource<{ img: string }>({ group: AppV1.group, version: 'v0', kind: 'App', plural: 'apps', namespaced: true });

const PORTS = 'test.converge.dev/extra-ports';
// v1alpha1 has one port; v1 has a list. The extra ports ride in an annotation so nothing is lost.
const conversion = defineConversion({
  hub: AppV1,
  spokes: [
    spoke(AppV1alpha1, {
      toHub: (old: V1alpha1): V1 => {
        const extra = JSON.parse(old.metadata?.annotations?.[PORTS] ?? '[]') as { name: string; port: number }[];
        const { [PORTS]: _, ...annotations } = old.metadata?.annotations ?? {};
        return {
          ...old,
          metadata: { ...old.metadata, annotations },
          spec: {
            image: old.spec.image,
            ...(old.spec.replicas !== undefined ? { replicas: old.spec.replicas } : {}),
            ...(old.spec.port !== undefined || extra.length
              ? { ports: [...(old.spec.port !== undefined ? [{ name: 'http', port: old.spec.port }] : []), ...extra] }
              : {}),
          },
        };
      },
      fromHub: (hub: V1): V1alpha1 => {
        const [first, ...rest] = hub.spec.ports ?? [];
        const annotations = { ...hub.metadata?.annotations, ...(rest.length ? { [PORTS]: JSON.stringify(rest) } : {}) };
        return {
          ...hub,
          metadata: { ...hub.metadata, annotations },
          spec: {
            image: hub.spec.image,
            ...(hub.spec.replicas !== undefined ? { replicas: hub.spec.replicas } : {}),
            ...(first ? { port: first.port } : {}),
          },
        };
      },
    }),
    spoke(AppV0, {
      toHub: (o) => ({ ...o, spec: { image: o.spec.img } }),
      fromHub: (hub: V1) => ({ ...hub, spec: { img: hub.spec.image } }),
    }),
  ],
});

const v1 = (spec: AppSpecV1): V1 => ({
  apiVersion: AppV1.apiVersion,
  kind: 'App',
  metadata: { name: 'shop', namespace: 'default', uid: 'u1', resourceVersion: '7', annotations: {} },
  spec,
});

describe('conversion', () => {
  it('converts a spoke to the hub and the hub to a spoke, setting apiVersion and kind', () => {
    const hub = v1({ image: 'nginx:1', ports: [{ name: 'http', port: 80 }] });
    const old = convertObject(conversion, hub, 'v1alpha1') as V1alpha1;
    assert.equal(old.apiVersion, 'test.converge.dev/v1alpha1');
    assert.equal(old.kind, 'App');
    assert.deepEqual(old.spec, { image: 'nginx:1', port: 80 });
    const back = convertObject(conversion, old, 'v1') as V1;
    assert.deepEqual(back, hub);
  });

  it('converts spoke to spoke through the hub', () => {
    const old: V1alpha1 = { apiVersion: AppV1alpha1.apiVersion, kind: 'App', metadata: { name: 'a' }, spec: { image: 'x:1', port: 8080 } };
    assert.deepEqual(convertObject(conversion, old, 'v0'), {
      apiVersion: 'test.converge.dev/v0',
      kind: 'App',
      metadata: { name: 'a', annotations: {} },
      spec: { img: 'x:1' },
    });
  });

  it("keeps the source's metadata whatever a converter does, except labels and annotations", () => {
    const c = defineConversion({
      hub: AppV1,
      spokes: [
        spoke(AppV0, {
          toHub: (o) => ({ ...o, metadata: { name: 'renamed', labels: { l: '1' } }, spec: { image: o.spec.img } }),
          fromHub: (h: V1) => ({ ...h, spec: { img: h.spec.image } }),
        }),
      ],
    });
    const out = convertObject(
      c,
      { apiVersion: AppV0.apiVersion, kind: 'App', metadata: { name: 'a', uid: 'u' }, spec: { img: 'i' } },
      'v1',
    );
    assert.deepEqual(out.metadata, { name: 'a', uid: 'u', labels: { l: '1' } });
  });

  it('round-trips v1 → v1alpha1 → v1 losslessly, the extra ports kept in an annotation', () => {
    const hub = v1({
      image: 'nginx:1',
      replicas: 2,
      ports: [
        { name: 'http', port: 80 },
        { name: 'admin', port: 9000 },
      ],
    });
    assert.deepEqual(roundTrip(conversion, hub, 'v1alpha1'), hub);
    const old: V1alpha1 = {
      apiVersion: AppV1alpha1.apiVersion,
      kind: 'App',
      metadata: { name: 'a', annotations: {} },
      spec: { image: 'x', port: 1 },
    };
    assert.deepEqual(roundTrip(conversion, old), old);
  });

  it('says a conversion is lossy when some version drops a field', () => {
    const hub = v1({ image: 'nginx:1', replicas: 2 });
    assert.equal(isLossless(conversion, hub), false, 'v0 has no replicas');
    const old: V1alpha1 = {
      apiVersion: AppV1alpha1.apiVersion,
      kind: 'App',
      metadata: { name: 'a', annotations: {} },
      spec: { image: 'x', port: 1 },
    };
    assert.equal(isLossless(defineConversion({ hub: AppV1, spokes: [conversion.spokes.get('v1alpha1')!] }), old), true);
  });

  it('refuses spokes of another kind, a version twice, unknown versions and a round trip through itself', () => {
    const Other = defineResource({ group: 'x.dev', version: 'v2', kind: 'Other', plural: 'others', namespaced: true });
    const id = { toHub: (o: KubeObject) => o as V1, fromHub: (h: V1) => h as KubeObject };
    assert.throws(() => defineConversion({ hub: AppV1, spokes: [spoke(Other, id)] }), { code: 'CONVERGE_INVALID_OPTION' });
    assert.throws(() => defineConversion({ hub: AppV1, spokes: [spoke(AppV0, id), spoke(AppV0, id)] }), /declared twice/);
    assert.throws(() => convertObject(conversion, v1({ image: 'x' }), 'v9'), /has no version v9/);
    assert.throws(
      () => convertObject(conversion, { apiVersion: 'x.dev/v1', kind: 'App', metadata: {} }, 'v1'),
      /not a version of test\.converge\.dev App/,
    );
    assert.throws(() => roundTrip(conversion, v1({ image: 'x' })), /needs another version/);
  });
});

describe('ConversionReview endpoint', () => {
  const conversions = new Map([['test.converge.dev/App', conversion]]);
  const request = (desiredAPIVersion: string, objects: KubeObject[]): ConversionReview => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'conv-1', desiredAPIVersion, objects },
  });

  it('converts every object to the desired version, in order, with the request uid', () => {
    const out = serveConversion(
      request('test.converge.dev/v1alpha1', [v1({ image: 'a:1' }), v1({ image: 'b:1', ports: [{ name: 'p', port: 1 }] })]),
      conversions,
      recordingLogger(),
    );
    assert.equal(out.response!.uid, 'conv-1');
    assert.deepEqual(out.response!.result, { status: 'Success' });
    assert.deepEqual(
      out.response!.convertedObjects.map((o) => (o as V1alpha1).spec),
      [{ image: 'a:1' }, { image: 'b:1', port: 1 }],
    );
  });

  it('fails the whole review when one object cannot be converted, and logs it with the uid', () => {
    const logger = recordingLogger();
    const out = serveConversion(
      request('test.converge.dev/v1alpha1', [v1({ image: 'a' }), { apiVersion: 'test.converge.dev/v1', kind: 'Gadget', metadata: {} }]),
      conversions,
      logger,
    );
    assert.equal(out.response!.result.status, 'Failure');
    assert.match(out.response!.result.message ?? '', /no conversion is registered for test\.converge\.dev Gadget/);
    assert.deepEqual(out.response!.convertedObjects, []);
    assert.equal(logger.lines[0]?.fields.uid, 'conv-1');
  });

  it('fails a body that is not a ConversionReview with a request', () => {
    const out = serveConversion({ kind: 'ConversionReview' }, conversions, recordingLogger());
    assert.equal(out.response!.result.status, 'Failure');
  });
});
