// The corpus round trip: well-known CRDs written as schema-first definitions (test/schema/corpus)
// generate the openAPIV3Schema their projects publish. The published schemas are read at test time
// from the installed @kubernetes-models packages, which ship JSON Schema conversions of the CRDs.
//
// Normalisation before comparing (both sides): descriptions are dropped (the definitions leave them
// out); the `x-kubernetes-*` extensions are dropped (the converter does not carry them); `required`
// lists are sorted. On the published side only: `nullable: true` is dropped (the converter adds it
// to every optional field) and `oneOf: [X, {type: null}]` becomes X. What remains must be equal:
// properties, types, required, enums, patterns, formats, bounds and defaults.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { CustomResource } from 'kube-converge/schema';
import { TestEnv } from 'kube-converge/testing';
import { HTTPRoute } from './corpus/httproute.js';

type Json = unknown;

function normalise(node: Json, published: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => normalise(n, published));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Record<string, unknown>);
  const oneOf = (node as { oneOf?: unknown[] }).oneOf;
  if (published && oneOf?.length === 2 && oneOf.some((b) => (b as { type?: unknown }).type === 'null')) {
    return normalise(
      oneOf.find((b) => (b as { type?: unknown }).type !== 'null'),
      published,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (k === 'description' || k.startsWith('x-kubernetes-') || (published && k === 'nullable')) continue;
    out[k] =
      k === 'required' && Array.isArray(v)
        ? [...(v as string[])].sort()
        : k === 'properties'
          ? normaliseMap(v, published)
          : normalise(v, published);
  }
  return out;
}
const normaliseMap = (v: unknown, published: boolean) =>
  Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, s]) => [k, normalise(s, published)]));

/** The schema the Gateway API package registers for a kind, taken from its validator as it is registered. */
function gatewayApiSchema(file: string, id: string): Record<string, unknown> {
  const pkg = createRequire(import.meta.url).resolve('@kubernetes-models/gateway-api/package.json');
  const require = createRequire(pkg);
  const validate = require('@kubernetes-models/validate') as { register: (id: string, schema: unknown) => void };
  const captured = new Map<string, unknown>();
  const register = validate.register;
  validate.register = (sid, schema) => {
    captured.set(sid, schema);
    register(sid, schema);
  };
  try {
    const mod = require(file) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = Object.values(mod)[0]!;
    try {
      new Model({ metadata: {}, spec: {} }).validate();
    } catch {
      // Only the registration matters here, not whether the probe object is valid.
    }
  } finally {
    validate.register = register;
  }
  const schema = captured.get(id);
  assert.ok(schema, `the package registered no schema ${id}`);
  return schema as Record<string, unknown>;
}

function compare(def: CustomResource, published: Record<string, unknown>): void {
  const generated = def.crd().spec.versions.find((v) => v.storage)?.schema?.openAPIV3Schema as Record<string, unknown>;
  const ours = (generated['properties'] ?? {}) as Record<string, unknown>;
  const theirs = (published['properties'] ?? {}) as Record<string, unknown>;
  for (const field of ['spec', 'status']) {
    assert.deepEqual(normalise(ours[field], false), normalise(theirs[field], true), `${def.kind} .${field}`);
  }
}

describe('corpus round trip', () => {
  it('Gateway API HTTPRoute v1 generates the published schema', () => {
    compare(
      HTTPRoute as unknown as CustomResource,
      gatewayApiSchema('./gateway.networking.k8s.io/v1/HTTPRoute.js', 'gateway.networking.k8s.io.v1.HTTPRoute'),
    );
  });

  it('the generated HTTPRoute CRD is accepted by the local API server and becomes Established', async () => {
    const env = await TestEnv.start({ crds: [HTTPRoute.crd()] });
    await env.stop();
  });
});
