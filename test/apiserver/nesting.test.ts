// Deep request bodies: every content type is held to one nesting limit at decode, patches cannot grow
// an object past it, and objects at the limit go through every verb. Run in-process, so a crash of
// the server is a crash of the test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer } from 'kube-converge/apiserver';
import { handleJson as call } from './helpers.js';

const LIMIT = 256;
const CM = '/api/v1/namespaces/default/configmaps';

/** A ConfigMap whose field `x` makes the whole body `depth` containers deep (the body is level 1). */
const deepJson = (depth: number): string =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'{"a":'.repeat(depth - 2)}{}${'}'.repeat(depth - 2)}}`;
const deepFlowYaml = (depth: number): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\nx: ${'{a: '.repeat(depth - 2)}{}${'}'.repeat(depth - 2)}\n`;

describe('request body nesting', () => {
  it('refuses a YAML body nested 1,000 levels with 400 naming the limit, request after request, and keeps serving', async () => {
    const s = createApiServer();
    await call(s, 'POST', CM, deepJson(3).replace('deep', 'deep'));
    for (let i = 0; i < 5; i++) {
      for (const [method, path, type] of [
        ['POST', CM, 'application/yaml'],
        ['PATCH', `${CM}/deep?fieldManager=m`, 'application/apply-patch+yaml'],
      ] as const) {
        const r = await call(s, method, path, deepFlowYaml(1000), type);
        assert.equal(r.status, 400, `${type} round ${i}`);
        assert.match(r.body.message, /nests deeper than the limit of 256 levels/);
      }
    }
    assert.equal((await s.handle({ method: 'GET', path: '/healthz' })).status, 200);
    s.stop();
  });

  it('refuses a block-style YAML body past the limit before composing it', async () => {
    const s = createApiServer();
    let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx:\n';
    for (let i = 1; i < 600; i++) text += `${' '.repeat(i)}- \n`;
    const r = await call(s, 'POST', CM, text, 'application/yaml');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /limit of 256 levels/);
    s.stop();
  });

  it('refuses a YAML alias bomb (billion laughs) with 400', async () => {
    const s = createApiServer();
    const lines = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: lol}',
      'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ];
    for (let i = 1; i < 9; i++)
      lines.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const r = await call(s, 'POST', CM, lines.join('\n'), 'application/yaml');
    assert.equal(r.status, 400);
    assert.match(r.body.message, /alias/i);
    s.stop();
  });

  it('refuses a YAML alias that refers to its own ancestor (a cycle) with 400', async () => {
    const s = createApiServer();
    const r = await call(s, 'POST', CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop}\nx: &a [*a]\n', 'application/yaml');
    assert.equal(r.status, 400);
    s.stop();
  });

  it('refuses a JSON body 5,000 levels deep on create with 400 naming the limit, and stores nothing', async () => {
    const s = createApiServer();
    const r = await call(s, 'POST', CM, deepJson(5000));
    assert.equal(r.status, 400);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, 'the body of the request (object) nests deeper than the limit of 256 levels');
    assert.equal((await call(s, 'GET', `${CM}/deep`)).status, 404);
    s.stop();
  });

  it('takes an object exactly at the limit through create, read, every patch type and a write-back with its managed fields', async () => {
    const s = createApiServer();
    assert.equal((await call(s, 'POST', CM, deepJson(LIMIT))).status, 201);
    assert.equal((await call(s, 'POST', CM, deepJson(LIMIT + 1))).status, 400);
    const got = await call(s, 'GET', `${CM}/deep`);
    assert.equal(got.status, 200);
    const deepX = JSON.parse(deepJson(LIMIT)).x;
    const patches: [string, string][] = [
      ['application/merge-patch+json', JSON.stringify({ x: deepX, data: { k: '1' } })],
      ['application/strategic-merge-patch+json', JSON.stringify({ x: deepX, data: { k: '2' } })],
      ['application/json-patch+json', JSON.stringify([{ op: 'replace', path: '/data/k', value: '3' }])],
    ];
    for (const [type, body] of patches) assert.equal((await call(s, 'PATCH', `${CM}/deep`, body, type)).status, 200, type);
    const applied = deepJson(LIMIT).replace('"x":', '"data":{"k":"applied"},"x":');
    const apply = await call(s, 'PATCH', `${CM}/deep?fieldManager=applier&force=true`, applied, 'application/apply-patch+yaml');
    assert.equal(apply.status, 200);
    const current = await call(s, 'GET', `${CM}/deep`);
    assert.ok(current.body.metadata.managedFields.some((e: { manager: string }) => e.manager === 'applier'));
    const put = await call(s, 'PUT', `${CM}/deep`, JSON.stringify({ ...current.body, data: { k: '4' } }));
    assert.equal(put.status, 200);
    assert.deepEqual(put.body.data, { k: '4' });
    s.stop();
  });

  it('refuses with 422 a JSON patch that would nest the object past the limit, and leaves it unchanged', async () => {
    const s = createApiServer();
    // `x` is no ConfigMap field: only `Ignore` keeps it (Strict and Warn drop it, as the real server does).
    assert.equal((await call(s, 'POST', `${CM}?fieldValidation=Ignore`, deepJson(LIMIT))).status, 201);
    const before = await call(s, 'GET', `${CM}/deep`);
    const path = `/x${'/a'.repeat(LIMIT - 3)}`;
    const value = JSON.parse(deepJson(100)).x;
    const r = await call(
      s,
      'PATCH',
      `${CM}/deep`,
      JSON.stringify([{ op: 'add', path: `${path}/b`, value }]),
      'application/json-patch+json',
    );
    assert.equal(r.status, 422);
    assert.match(r.body.message, /the patched object nests deeper than the limit of 256 levels/);
    assert.deepEqual(await call(s, 'GET', `${CM}/deep`), before);
    s.stop();
  });
});
