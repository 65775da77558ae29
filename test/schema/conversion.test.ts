// A definition's conversion, description and CRD annotations: `spec.conversion` written as the API
// server stores it (a Service port defaulted to 443, None explicit only when declared), the
// impossible conversions refused at definition time naming the field, each version typed from its
// own schema, and the local API server taking the generated CRD and reading it back unchanged.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { CustomResourceDefinitionResource, type ObjectOf } from 'kube-converge/meta';
import { TestEnv } from 'kube-converge/testing';
import { SchemaNotStructuralError, defineCustomResource, type CustomResourceInput } from 'kube-converge/schema';

const Gadget = defineCustomResource({
  group: 'conversion.converge.dev',
  kind: 'Gadget',
  scope: 'Namespaced',
  description: 'A gadget, sized.',
  versions: {
    v2: { served: true, storage: true, spec: Type.Object({ size: Type.Integer({ minimum: 0 }) }) },
    v1: { served: true, storage: false, spec: Type.Object({ count: Type.Optional(Type.Integer()) }) },
  },
  conversion: {
    strategy: 'Webhook',
    service: { namespace: 'gadgets', name: 'gadget-webhook', path: '/convert' },
    conversionReviewVersions: ['v1', 'v1beta1'],
  },
  crdAnnotations: { 'cert-manager.io/inject-ca-from': 'gadgets/gadget-cert' },
});

const withConversion = (conversion: unknown, versions = 1): CustomResourceInput => ({
  group: 'a.example.dev',
  kind: 'A',
  scope: 'Namespaced',
  versions: Object.fromEntries(
    Array.from({ length: versions }, (_, i) => [`v${i + 1}`, { served: true, storage: i === 0, spec: Type.Object({}) }]),
  ),
  conversion: conversion as NonNullable<CustomResourceInput['conversion']>,
});

const refused = (conversion: unknown, path: string, reason: RegExp) =>
  assert.throws(
    () => defineCustomResource(withConversion(conversion)),
    (e: unknown) => e instanceof SchemaNotStructuralError && e.path === path && reason.test(e.reason),
    `${JSON.stringify(conversion)} must be refused at ${path}`,
  );

const webhook = { strategy: 'Webhook', conversionReviewVersions: ['v1'] } as const;

describe('conversion in a definition', () => {
  it('writes a Service webhook as the API server stores it, the port defaulted to 443', () => {
    assert.deepEqual(Gadget.crd().spec.conversion, {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { namespace: 'gadgets', name: 'gadget-webhook', path: '/convert', port: 443 } },
        conversionReviewVersions: ['v1', 'v1beta1'],
      },
    });
  });

  it('writes a URL webhook, an explicit None, and no conversion at all when the definition names none', () => {
    const url = defineCustomResource(withConversion({ ...webhook, url: 'https://hooks.example.dev:8443/convert' }));
    assert.deepEqual(url.crd().spec.conversion, {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: 'https://hooks.example.dev:8443/convert' }, conversionReviewVersions: ['v1'] },
    });
    assert.deepEqual(defineCustomResource(withConversion({ strategy: 'None' }, 2)).crd().spec.conversion, { strategy: 'None' });
    assert.equal('conversion' in defineCustomResource(withConversion(undefined)).crd().spec, false);
  });

  it('takes a Webhook conversion on a single version', () => {
    const single = defineCustomResource(withConversion({ ...webhook, service: { namespace: 'n', name: 's', port: 9443 } }));
    assert.equal(single.crd().spec.conversion?.webhook?.clientConfig?.service?.port, 9443);
  });

  it('refuses the conversions the API server would refuse, naming the field', () => {
    const service = { namespace: 'n', name: 's' };
    refused({ strategy: 'None', service }, 'conversion', /strategy None takes no webhook, but service is set/);
    refused({ strategy: 'Sometimes' }, 'conversion.strategy', /must be None or Webhook/);
    refused({ ...webhook }, 'conversion', /exactly one of service and url/);
    refused({ ...webhook, service, url: 'https://a.example.dev/' }, 'conversion', /exactly one of service and url/);
    refused({ ...webhook, url: 'http://a.example.dev/convert' }, 'conversion.url', /'https' is the only scheme/);
    refused({ ...webhook, url: 'https://a.example.dev/convert?x=1' }, 'conversion.url', /query or a fragment/);
    refused({ ...webhook, url: 'https://me:pw@a.example.dev/' }, 'conversion.url', /user or password/);
    refused({ ...webhook, url: 'convert' }, 'conversion.url', /absolute URL/);
    refused({ ...webhook, service: { namespace: 'n' } }, 'conversion.service.name', /is required/);
    refused({ ...webhook, service: { ...service, port: 0 } }, 'conversion.service.port', /from 1 to 65535/);
    refused({ ...webhook, service: { ...service, path: 'convert' } }, 'conversion.service.path', /must start with '\/'/);
    refused({ ...webhook, service: { ...service, path: '/Convert' } }, 'conversion.service.path', /segment 0 .* DNS subdomain/);
    refused({ ...webhook, service: { ...service, path: '/a//b' } }, 'conversion.service.path', /segment 1/);
    refused({ ...webhook, service, conversionReviewVersions: [] }, 'conversion.conversionReviewVersions', /at least one of v1, v1beta1/);
    refused({ ...webhook, service, conversionReviewVersions: ['v2'] }, 'conversion.conversionReviewVersions[0]', /v1 or v1beta1/);
    refused({ ...webhook, service, conversionReviewVersions: ['v1', 'v1'] }, 'conversion.conversionReviewVersions[1]', /listed twice/);
  });

  it('has the impossible shapes as type errors too', () => {
    const input = (conversion: CustomResourceInput['conversion']) => conversion;
    // @ts-expect-error: a review version the API server does not send
    input({ strategy: 'Webhook', conversionReviewVersions: ['v2'], url: 'https://a.example.dev/' });
    // @ts-expect-error: a Service and a URL at once
    input({ strategy: 'Webhook', conversionReviewVersions: ['v1'], url: 'https://a.example.dev/', service: { namespace: 'n', name: 's' } });
    // @ts-expect-error: no review version
    input({ strategy: 'Webhook', conversionReviewVersions: [], url: 'https://a.example.dev/' });
    // @ts-expect-error: None has no webhook
    input({ strategy: 'None', url: 'https://a.example.dev/' });
  });
});

describe('each version of a multi-version definition', () => {
  it('is typed with its own schema', () => {
    const now: ObjectOf<typeof Gadget> = { metadata: {}, spec: { size: 2 } };
    const old: ObjectOf<typeof Gadget.versions.v1> = { metadata: {}, spec: { count: 2 } };
    // @ts-expect-error: v1 has no size
    const wrong: ObjectOf<typeof Gadget.versions.v1> = { metadata: {}, spec: { size: 2 } };
    assert.ok(now && old && wrong);
    assert.deepEqual(
      Gadget.crd().spec.versions.map((v) => Object.keys(v.schema?.openAPIV3Schema?.properties?.['spec']?.properties ?? {})),
      [['size'], ['count']],
    );
  });

  it('carries the description on every root schema and the annotations on the CRD object', () => {
    const crd = Gadget.crd();
    assert.deepEqual(
      crd.spec.versions.map((v) => v.schema?.openAPIV3Schema?.description),
      ['A gadget, sized.', 'A gadget, sized.'],
    );
    assert.deepEqual(crd.metadata.annotations, { 'cert-manager.io/inject-ca-from': 'gadgets/gadget-cert' });
    assert.equal('annotations' in defineCustomResource(withConversion(undefined)).crd().metadata, false);
  });

  it('refuses an annotation key the API server would refuse', () => {
    for (const key of ['has space', 'Bad_Prefix.io/name', `${'n'.repeat(64)}`, 'a.io/']) {
      assert.throws(
        () => defineCustomResource({ ...withConversion(undefined), crdAnnotations: { [key]: 'x' } }),
        (e: unknown) => e instanceof SchemaNotStructuralError && e.path === `crdAnnotations.${key}`,
        key,
      );
    }
  });

  it('is created by the local API server as generated, and read back with the same conversion and annotations', async () => {
    await using env = await TestEnv.start();
    const crd = Gadget.crd();
    await env.client.create(CustomResourceDefinitionResource, crd);
    const back = await env.client.get(CustomResourceDefinitionResource, { name: 'gadgets.conversion.converge.dev' });
    assert.deepEqual(back.spec.conversion, crd.spec.conversion);
    assert.deepEqual(back.metadata.annotations, crd.metadata.annotations);
    assert.deepEqual(
      back.spec.versions.map((v) => [v.name, v.served, v.storage]),
      [
        ['v2', true, true],
        ['v1', true, false],
      ],
    );
  });
});
