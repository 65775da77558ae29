// The corpus round trip against what the @kubernetes-models packages ship besides schema values:
// TypeScript declarations and a validator. cert-manager's Certificate and Prometheus-operator's
// ServiceMonitor, whose packages ship no schema value, and Gateway API's HTTPRoute (whose schema is
// also compared value for value in corpus.test.ts), written as definitions in test/schema/corpus.
// Two comparisons hold the generated schema against the published one:
// - structure: every property path under spec and status, its type (integer and number both read as
//   TypeScript's number), whether it is optional, and enums, against the package's `.d.ts` as
//   the TypeScript compiler resolves it;
// - behaviour: with fast-check, objects generated from our schema (valid, and with one constraint
//   broken: a wrong type, a required field removed, a string outside its enum, a pattern missed, a
//   length past its bound, an int32 or date-time outside its format) are accepted or refused by the
//   package's validator exactly as our API server's schema validation (`validateAgainstCrd`) accepts
//   or refuses them.
// What cannot be compared: descriptions and the `x-kubernetes-*` extensions (list and map types,
// int-or-string, CEL rules), which neither the declarations nor the validator carry; defaults, which
// the validator does not apply (ours applies them before validating, as the server does); the edges
// of formats, where the two format libraries read date-times and int64s past 2^53 differently (the
// mutations break formats only with values no reading takes); and unknown fields, which the
// validator lets through and the server prunes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CustomResource, StructuralSchema } from 'kube-converge/schema';
import { TestEnv, validateAgainstCrd } from 'kube-converge/testing';
import { Certificate } from './corpus/certificate.js';
import { ServiceMonitor } from './corpus/servicemonitor.js';
import { HTTPRoute } from './corpus/httproute.js';
import { certManagerCertificate, gatewayApiHttpRoute, prometheusServiceMonitor, type PublishedKind } from './corpus/published.js';
import { declaredShape, type DeclaredShape } from './corpus/declared-shape.js';
import { structureDifferences } from './corpus/structure-diff.js';
import { mutations, validValue, type MutationKind } from './corpus/schema-arbitrary.js';

const RUNS = 150;
const SEED = 24;
const here = new URL('./corpus', import.meta.url).pathname;

/** The storage version's spec and status, as one object schema whose only required field is spec. */
function body(def: CustomResource): StructuralSchema {
  const root = def.crd().spec.versions.find((v) => v.storage)?.schema?.openAPIV3Schema as StructuralSchema;
  const { spec, status } = root.properties ?? {};
  return { type: 'object', properties: { spec: spec!, ...(status !== undefined ? { status } : {}) }, required: ['spec'] };
}

/** The declared shape of spec and status, the same way. */
function declaredBody(published: PublishedKind): DeclaredShape {
  const shape = declaredShape(published.declarations.specifier, published.declarations.name, here);
  assert.equal(shape.kind, 'object');
  const { spec, status } = shape.properties;
  return { kind: 'object', properties: { spec: spec!, ...(status !== undefined ? { status } : {}) } };
}

/** The CRD without its CEL rules, which the published validator does not carry, so only the schemas are held side by side. */
function withoutCelRules<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutCelRules) as T;
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== 'x-kubernetes-validations')
      .map(([k, v]) => [k, withoutCelRules(v)]),
  ) as T;
}

const object = (def: CustomResource, b: unknown) => ({
  apiVersion: def.apiVersion,
  kind: def.kind,
  metadata: { name: 'corpus', namespace: 'default' },
  ...(b as Record<string, unknown>),
});

/**
 * Runs `RUNS` objects through both validators: valid ones must be accepted by both, mutated ones
 * refused by both, except where `lenient` says the published validator is known to accept what
 * Kubernetes refuses. Returns how many objects met the expectation.
 */
function differential(
  def: CustomResource,
  published: PublishedKind,
  kind: MutationKind | 'valid',
  lenient: (path: string, replacement: unknown) => boolean,
): number {
  const crd = withoutCelRules(def.crd());
  const schema = body(def);
  const objects =
    kind === 'valid'
      ? validValue(schema).map((value) => ({ path: '(valid)', value, replacement: value }))
      : validValue(schema)
          .chain((v) => mutations(schema, v, '', kind) ?? fc.constant(undefined))
          .filter((m) => m !== undefined);
  let agreed = 0;
  fc.assert(
    fc.property(objects, ({ path, value, replacement }) => {
      const obj = object(def, value);
      const known = kind !== 'valid' && lenient(path, replacement);
      const expected = { path, ours: kind === 'valid', theirs: kind === 'valid' || known };
      assert.deepEqual({ path, ours: validateAgainstCrd(crd, obj).valid, theirs: published.validate(obj) }, expected);
      agreed++;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  return agreed;
}

/**
 * The package's validator checks a quantity with a format of its own that also takes the decimal SI
 * prefixes Kubernetes' quantity grammar lacks (`0a`, `5h`, `1da`); the CRD's pattern, and so ours
 * and the server, refuse them.
 */
const WIDER_SI_QUANTITY = /^[+-]?(\d+|\d+\.\d+|\d+\.|\.\d+)(da|[YZhdcpfazy])$/;
const QUANTITY_FIELD = '.spec.nativeHistogramMinBucketFactor';

const kinds = [
  {
    def: Certificate as unknown as CustomResource,
    published: async () => certManagerCertificate(),
    // cert-manager 1.11's Certificate has no patterns or bounds to break.
    mutated: ['type', 'required', 'enum', 'format'] as const,
    lenient: { note: '', applies: () => false },
    knownStructureDifferences: [],
  },
  {
    def: ServiceMonitor as unknown as CustomResource,
    published: prometheusServiceMonitor,
    mutated: ['type', 'required', 'enum', 'pattern', 'bound', 'format'] as const,
    lenient: {
      note: ' (or taken by the package, for the quantities below)',
      applies: (path: string, replacement: unknown) =>
        path === QUANTITY_FIELD && typeof replacement === 'string' && WIDER_SI_QUANTITY.test(replacement),
    },
    // The declarations type a binding condition's `type` as a plain string; the package's validator
    // (and the CRD) limit it to `Accepted`, which the behaviour comparison checks.
    knownStructureDifferences: ['ServiceMonitor.status.bindings[].conditions[].type: generated enum [Accepted], declared []'],
  },
  {
    def: HTTPRoute as unknown as CustomResource,
    published: async () => gatewayApiHttpRoute(),
    mutated: ['type', 'required', 'enum', 'pattern', 'bound', 'format'] as const,
    lenient: { note: '', applies: () => false },
    knownStructureDifferences: [],
  },
];

describe('corpus round trip against published declarations and validators', () => {
  for (const { def, published, mutated, lenient, knownStructureDifferences } of kinds) {
    it(`${def.kind}: the generated schema has the paths, types, optionality and enums the package declares`, async () => {
      const differences = structureDifferences(body(def), declaredBody(await published()), def.kind);
      assert.deepEqual(differences, knownStructureDifferences);
    });

    it(`${def.kind}: the package's validator and our schema validation accept the same ${RUNS} valid objects`, async () => {
      assert.equal(differential(def, await published(), 'valid', lenient.applies), RUNS);
    });

    for (const kind of mutated) {
      const note = kind === 'pattern' ? lenient.note : '';
      it(`${def.kind}: both refuse ${RUNS} objects with one ${kind} constraint broken${note}`, async () => {
        assert.equal(differential(def, await published(), kind, lenient.applies), RUNS);
      });
    }
  }

  it('ServiceMonitor: a quantity with a decimal SI prefix Kubernetes lacks is refused by our schema and taken by the package', async () => {
    const published = await prometheusServiceMonitor();
    const withFactor = (factor: string) =>
      object(ServiceMonitor as unknown as CustomResource, {
        spec: { selector: {}, endpoints: [], nativeHistogramMinBucketFactor: factor },
      });
    const answers = (factor: string) => ({
      ours: validateAgainstCrd(ServiceMonitor.crd(), withFactor(factor)).valid,
      theirs: published.validate(withFactor(factor)),
    });
    assert.deepEqual(answers('0a'), { ours: false, theirs: true });
    assert.deepEqual(answers('5h'), { ours: false, theirs: true });
    assert.deepEqual(answers('0m'), { ours: true, theirs: true });
  });

  it('the generated Certificate and ServiceMonitor CRDs pass the local API server checks and serve objects', async () => {
    const env = await TestEnv.start({ crds: [Certificate.crd(), ServiceMonitor.crd()] });
    try {
      const metadata = { name: 'corpus', namespace: 'default' };
      const cert = await env.client.create(Certificate, { metadata, spec: { secretName: 'tls', issuerRef: { name: 'ca' } } });
      assert.equal(cert.spec.issuerRef.name, 'ca');
      const monitor = await env.client.create(ServiceMonitor, {
        metadata,
        spec: { selector: { matchLabels: { app: 'web' } }, endpoints: [{ port: 'metrics', metricRelabelings: [{ targetLabel: 'x' }] }] },
      });
      assert.equal(monitor.spec.endpoints[0]?.metricRelabelings?.[0]?.action, 'replace', 'the server applies the published default');
    } finally {
      await env.stop();
    }
  });
});
