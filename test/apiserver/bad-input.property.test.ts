// Property: whatever the request body — nested to any depth, aliased (YAML billion laughs, cycles),
// huge but shallow, or cut off mid-way — in any content type and through create, update or patch, the
// in-process server answers a Status below 500, keeps answering, and a refusal changes nothing stored.
// Fixed seed, so a failure is reproducible: fast-check prints the seed and the shrunk counterexample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';

const SEED = 20_261_201;
const RUNS = 100;
const CM = '/api/v1/namespaces/default/configmaps';

const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/apply-patch+yaml',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/json-patch+json',
] as const;
type ContentType = (typeof CONTENT_TYPES)[number];
type Verb = 'create' | 'update' | 'patch';

type Shape =
  | { kind: 'deep'; depth: number; list: boolean; block: boolean }
  | { kind: 'laughs'; levels: number; fanout: number }
  | { kind: 'cycle' }
  | { kind: 'wide'; keys: number }
  | { kind: 'truncated'; depth: number; cut: number };

const shapes: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 250, max: 262 }), fc.integer({ min: 263, max: 3000 })),
    list: fc.boolean(),
    block: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('laughs' as const), levels: fc.integer({ min: 2, max: 12 }), fanout: fc.integer({ min: 2, max: 12 }) }),
  fc.constant({ kind: 'cycle' as const }),
  fc.record({ kind: fc.constant('wide' as const), keys: fc.integer({ min: 1_000, max: 5_000 }) }),
  fc.record({
    kind: fc.constant('truncated' as const),
    depth: fc.integer({ min: 2, max: 2000 }),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);

/** A value `depth` containers deep, as JSON text. */
const deepJson = (depth: number, list: boolean): string =>
  list ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

/** The same value as block-style YAML, indented under a key at `indent`. */
function deepBlockYaml(depth: number, list: boolean, indent: number): string {
  let out = '';
  for (let i = 0; i < depth - 1; i++) out += `\n${' '.repeat(indent + i)}${list ? '-' : 'a:'}`;
  return `${out} ${list ? '[]' : '{}'}`;
}

/** The field `x` of the body (the object's root and `x` make two more levels). */
function xValue(shape: Shape, yaml: boolean): { yamlPrefix?: string; text: string } {
  switch (shape.kind) {
    case 'deep':
      if (yaml && shape.block && shape.depth <= 700) return { text: deepBlockYaml(shape.depth, shape.list, 2) };
      return { text: deepJson(shape.depth, shape.list) };
    case 'laughs': {
      if (!yaml) return { text: JSON.stringify(Array.from({ length: shape.levels * shape.fanout }, (_, i) => `lol${i}`)) };
      const lines = [`l0: &l0 [${Array(shape.fanout).fill('lol').join(', ')}]`];
      for (let i = 1; i < shape.levels; i++)
        lines.push(
          `l${i}: &l${i} [${Array(shape.fanout)
            .fill(`*l${i - 1}`)
            .join(', ')}]`,
        );
      return { yamlPrefix: `${lines.join('\n')}\n`, text: `*l${shape.levels - 1}` };
    }
    case 'cycle':
      return yaml ? { text: '&c [*c]' } : { text: '{"a":{"a":{}}}' };
    case 'wide':
      return { text: `{${Array.from({ length: shape.keys }, (_, i) => `"k${i}":"${i}"`).join(',')}}` };
    case 'truncated': {
      const full = deepJson(shape.depth, false);
      return { text: full.slice(0, Math.floor(full.length * shape.cut)) };
    }
  }
}

function body(shape: Shape, type: ContentType, meta: string): string {
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml';
  const x = xValue(shape, yaml);
  if (type === 'application/json-patch+json') return `[{"op":"add","path":"/x","value":${x.text}}]`;
  if (yaml) return `${x.yamlPrefix ?? ''}apiVersion: v1\nkind: ConfigMap\nmetadata: ${meta}\nx: ${x.text}\n`;
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":${meta},"x":${x.text}}`;
}

async function send(s: ApiServer, verb: Verb, type: ContentType, shape: Shape) {
  const stored = JSON.parse((await s.handle({ method: 'GET', path: `${CM}/target` })).body);
  const meta =
    verb === 'update' ? JSON.stringify({ name: 'target', resourceVersion: stored.metadata.resourceVersion }) : '{"name":"fresh"}';
  const text = body(shape, type, meta);
  const request = {
    create: { method: 'POST', path: CM },
    update: { method: 'PUT', path: `${CM}/target` },
    patch: { method: 'PATCH', path: `${CM}/target?fieldManager=fuzz&force=true` },
  }[verb];
  return s.handle({ ...request, headers: { 'content-type': type, accept: 'application/json' }, body: text });
}

const snapshot = async (s: ApiServer): Promise<unknown> => JSON.parse((await s.handle({ method: 'GET', path: CM })).body);

describe('bad request bodies (property)', () => {
  it('never answer 5xx, never stop the server, and change nothing when refused', async (t) => {
    const s = createApiServer();
    await s.handle({
      method: 'POST',
      path: CM,
      headers: { 'content-type': 'application/json' },
      body: '{"metadata":{"name":"target"},"data":{"k":"v"}}',
    });
    const started = performance.now();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Verb>('create', 'update', 'patch'),
        fc.constantFrom(...CONTENT_TYPES),
        shapes,
        async (verb, type, shape) => {
          runs++;
          const before = await snapshot(s);
          const r = await send(s, verb, type, shape);
          assert.ok(r.status < 500, `${r.status}: ${r.body.slice(0, 300)}`);
          if (r.status >= 400) {
            const status = JSON.parse(r.body);
            assert.equal(status.kind, 'Status');
            assert.deepEqual(await snapshot(s), before, 'a refused request changed the store');
          } else if (verb === 'create') {
            await s.handle({ method: 'DELETE', path: `${CM}/fresh` });
          }
          assert.equal((await s.handle({ method: 'GET', path: '/healthz' })).status, 200);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    t.diagnostic(`${runs} runs in ${Math.round(performance.now() - started)} ms (seed ${SEED})`);
    s.stop();
  });
});
