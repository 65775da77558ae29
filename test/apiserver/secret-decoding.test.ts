// Secret data and stringData must be maps of strings, as Go's decoder insists: anything else is a 400
// naming the field and the JSON kind, nothing is stored, and no error, log line or answer ever shows a
// secret value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson as call } from './helpers.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const VALUE = 'hunter2-do-not-print';
const VALUE64 = Buffer.from(VALUE).toString('base64');

function server(): { s: ApiServer; logged: string[] } {
  const logged: string[] = [];
  const line = (...args: unknown[]): void => void logged.push(JSON.stringify(args));
  const logger = { error: line, warn: line, info: line, debug: line, child: () => logger };
  return { s: createApiServer({ logger: logger as never }), logged };
}

const secret = (fields: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...fields });
const refusal = (kind: string, field: string, type: string) =>
  `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal ${kind} into Go struct field Secret.${field} of type ${type}`;

const MISTAKES: [string, Record<string, unknown>, string][] = [
  ['a stringData value that is an object', { stringData: { a: { password: VALUE } } }, refusal('object', 'stringData', 'string')],
  ['a stringData value that is a number', { stringData: { a: 42 } }, refusal('number', 'stringData', 'string')],
  ['a stringData value that is a boolean', { stringData: { a: true } }, refusal('bool', 'stringData', 'string')],
  ['a stringData value that is an array', { stringData: { a: [VALUE] } }, refusal('array', 'stringData', 'string')],
  ['a stringData that is not a map', { stringData: VALUE }, refusal('string', 'stringData', 'map[string]string')],
  ['a data that is not a map', { data: VALUE64 }, refusal('string', 'data', 'map[string][]uint8')],
  ['a data that is a list', { data: [VALUE64] }, refusal('array', 'data', 'map[string][]uint8')],
  ['a data value that is an object', { data: { a: { v: VALUE64 } } }, refusal('object', 'data', '[]uint8')],
];

const noSecretIn = (text: string): void => {
  assert.ok(!text.includes(VALUE) && !text.includes(VALUE64), `a secret value leaked: ${text}`);
};

describe('Secret data and stringData decoding', () => {
  for (const [what, fields, message] of MISTAKES) {
    it(`refuses ${what} with 400 on create, update and patch, storing nothing and printing no secret value`, async () => {
      const { s, logged } = server();
      const created = await call(s, 'POST', SECRETS, secret(fields));
      assert.equal(created.status, 400);
      assert.equal(created.body.reason, 'BadRequest');
      assert.equal(created.body.message, message);
      noSecretIn(created.text);
      assert.equal((await call(s, 'GET', `${SECRETS}/s`)).status, 404);

      const stored = (await call(s, 'POST', SECRETS, secret({ data: { keep: 'a2VlcA==' } }))).body;
      const put = await call(s, 'PUT', `${SECRETS}/s`, { ...stored, ...fields });
      const patch = await call(s, 'PATCH', `${SECRETS}/s`, fields, 'application/merge-patch+json');
      for (const r of [put, patch]) {
        assert.equal(r.status, 400);
        assert.equal(r.body.message, message);
        noSecretIn(r.text);
      }
      assert.deepEqual((await call(s, 'GET', `${SECRETS}/s`)).body, stored);
      noSecretIn(logged.join('\n'));
      s.stop();
    });
  }

  it('refuses data that is not base64 with 422 that redacts the value', async () => {
    const { s } = server();
    const r = await call(s, 'POST', SECRETS, secret({ data: { a: `${VALUE}!` } }));
    assert.equal(r.status, 422);
    assert.match(r.body.message, /must be base64 encoded/);
    noSecretIn(r.text);
    s.stop();
  });

  it('refuses a strategic merge patch with an unknown $patch directive in data without printing the data', async () => {
    const { s } = server();
    assert.equal((await call(s, 'POST', SECRETS, secret({ data: { keep: 'a2VlcA==' } }))).status, 201);
    const r = await call(s, 'PATCH', `${SECRETS}/s`, { data: { $patch: 'bogus', a: VALUE64 } }, 'application/strategic-merge-patch+json');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'unknown patch type: bogus in map with keys: $patch, a');
    noSecretIn(r.text);
    s.stop();
  });

  it('stores a null stringData value as the empty string, as Go decodes null into a string map', async () => {
    const { s } = server();
    const r = await call(s, 'POST', SECRETS, secret({ stringData: { a: null, b: VALUE } }));
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.data, { a: '', b: VALUE64 });
    assert.equal(r.body.stringData, undefined);
    s.stop();
  });
});
