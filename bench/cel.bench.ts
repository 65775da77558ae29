// CEL rule cost on real CRDs, measured side by side in one process and reported as a ratio: an
// HTTPRoute checked with `validateAgainstCrd` against the Gateway API HTTPRoute CRD with its rules,
// against the same CRD with every `x-kubernetes-validations` removed (defaulting, pruning and the
// OpenAPI checks only, the floor). Goal: the rules cost less than the schema work times 5.
import { join } from 'node:path';
import { loadCrds, validateAgainstCrd, type CustomResourceDefinition } from 'kube-converge/testing';

const ROUNDS = 7;
const CALLS = 500;

const [withRules] = await loadCrds([join(import.meta.dirname, '..', 'test', 'apiserver', 'fixtures', 'gateway-api', 'httproutes.yaml')]);
const withoutRules = JSON.parse(JSON.stringify(withRules), (k, v: unknown) =>
  k === 'x-kubernetes-validations' ? undefined : v,
) as CustomResourceDefinition;

const route = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'web' },
  spec: {
    parentRefs: [{ name: 'gw' }],
    hostnames: ['example.com'],
    rules: Array.from({ length: 4 }, (_, i) => ({
      matches: [{ path: { type: 'PathPrefix', value: `/app${i}` } }],
      filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-rule', value: String(i) }] } }],
      backendRefs: [{ name: `web-${i}`, port: 80 }],
    })),
  },
};

function perCallMicros(crd: CustomResourceDefinition): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    if (!validateAgainstCrd(crd, route).valid) throw new Error('the bench route must be valid');
  }
  return Number(process.hrtime.bigint() - start) / 1000 / CALLS;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Warm up both: compile the rules (cached per schema) and let the JIT settle.
perCallMicros(withRules!);
perCallMicros(withoutRules);
const rules: number[] = [];
const floor: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  rules.push(perCallMicros(withRules!));
  floor.push(perCallMicros(withoutRules));
}
const withMedian = median(rules);
const floorMedian = median(floor);
console.log(`HTTPRoute with CEL rules:    ${withMedian.toFixed(1)} µs per check`);
console.log(`HTTPRoute, OpenAPI only:     ${floorMedian.toFixed(1)} µs per check`);
console.log(`ratio (rules / OpenAPI only): ${(withMedian / floorMedian).toFixed(2)}x (goal < 5x)`);
