// CEL rule cost on a realistic CRD, measured side by side in one process and reported as a ratio: a
// route checked with `validateAgainstCrd` against our WebRoute CRD (shaped like real-world route
// APIs) with its rules, against the same CRD with every `x-kubernetes-validations` removed
// (defaulting, pruning and the OpenAPI checks only, the floor). Goal: the rules cost less than the
// schema work times 5.
import { validateAgainstCrd, type CustomResourceDefinition } from 'kube-converge/testing';
import { ROUTES_GROUP, webRouteCrd } from '../test/apiserver/fixtures/route-crds.js';

const ROUNDS = 7;
const CALLS = 500;

const withRules = webRouteCrd();
const withoutRules = JSON.parse(JSON.stringify(withRules), (k, v: unknown) =>
  k === 'x-kubernetes-validations' ? undefined : v,
) as CustomResourceDefinition;

const route = {
  apiVersion: `${ROUTES_GROUP}/v1`,
  kind: 'WebRoute',
  metadata: { name: 'web' },
  spec: {
    parents: [{ name: 'gw' }],
    hosts: ['example.com', '*.example.org'],
    rules: Array.from({ length: 4 }, (_, i) => ({
      matches: [{ path: { type: 'Prefix', value: `/app${i}` }, headers: [{ name: 'x-tenant', value: `t${i}` }] }],
      filters: [{ type: 'SetHeaders', setHeaders: { set: [{ name: 'x-rule', value: String(i) }] } }],
      backends: [{ name: `web-${i}`, port: 80 }],
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
perCallMicros(withRules);
perCallMicros(withoutRules);
const rules: number[] = [];
const floor: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  rules.push(perCallMicros(withRules));
  floor.push(perCallMicros(withoutRules));
}
const withMedian = median(rules);
const floorMedian = median(floor);
console.log(`WebRoute with CEL rules:     ${withMedian.toFixed(1)} µs per check`);
console.log(`WebRoute, OpenAPI only:      ${floorMedian.toFixed(1)} µs per check`);
console.log(`ratio (rules / OpenAPI only): ${(withMedian / floorMedian).toFixed(2)}x (goal < 5x)`);
