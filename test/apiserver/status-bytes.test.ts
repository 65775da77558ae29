// Imports private wire/ files: the Status bytes are compared as the server's encoders write them.
// The bytes of every Status the server writes, compared whole with the body kube-apiserver writes for the
// same failure. The expected bodies are ours, written from the Go types (field order of metav1.Status,
// StatusDetails, StatusCause and ListMeta; `omitempty` drops empty strings and zero numbers; Go's JSON
// encoder escapes <, > and & and ends every document with a newline) and from apimachinery's error
// constructors for the wording. Also the other bodies clients compare: list metadata, watch envelopes,
// Table, the delete Status, discovery.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { type ApiResponse } from '../../src/apiserver/internal.js';
import { FakeClock } from 'kube-converge/meta';
import { cm, startApi } from './helpers.js';
// No request reaches these two from outside: nothing here answers 429, and a 500 is a server bug.
import { statusJson } from '../../src/apiserver/wire/status-json.js';
import { errorResponse } from '../../src/apiserver/wire/response.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** A Failure Status body as kube-apiserver writes it: `rest` is the JSON text after `"status":"Failure",`. */
const failure = (rest: string): string => `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",${rest}}\n`;

function server(): ApiServer {
  return createApiServer({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
}

async function call(
  s: ApiServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return s.handle({
    method,
    path,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** The first `n` lines a watch response streams. */
function watchLines(r: ApiResponse, n: number): Promise<string[]> {
  return new Promise((resolve) => {
    const lines: string[] = [];
    r.stream!.attach({
      write(chunk) {
        lines.push(...chunk.split(/(?<=\n)/));
        if (lines.length >= n) {
          r.stream!.detach();
          resolve(lines.slice(0, n));
        }
        return true;
      },
      end: () => resolve(lines),
    });
  });
}

describe('Status bodies, byte for byte as kube-apiserver writes them', () => {
  it('writes 400 BadRequest without details', async () => {
    const s = server();
    await call(s, 'POST', CMS, cm('a'));
    const r = await call(s, 'PUT', `${CMS}/a`, cm('b'));
    assert.equal(r.status, 400);
    assert.equal(
      r.body,
      failure('"message":"the name of the object (b) does not match the name on the URL (a)","reason":"BadRequest","code":400'),
    );
    s.stop();
  });

  it('writes 401 Unauthorized with the bare message and no details', async () => {
    await using api = await startApi();
    const r = await api.call('GET', CMS, undefined, { authorization: 'Bearer wrong' });
    assert.equal(r.status, 401);
    assert.equal(r.text, failure('"message":"Unauthorized","reason":"Unauthorized","code":401'));
  });

  it('writes 403 Forbidden with name and kind, and no empty group', async () => {
    const s = server();
    const r = await call(s, 'DELETE', '/api/v1/namespaces/default');
    assert.equal(r.status, 403);
    assert.equal(
      r.body,
      failure(
        '"message":"namespaces \\"default\\" is forbidden: this namespace may not be deleted","reason":"Forbidden","details":{"name":"default","kind":"namespaces"},"code":403',
      ),
    );
    s.stop();
  });

  it('writes 404 NotFound with the group only when the resource has one', async () => {
    const s = server();
    assert.equal(
      (await call(s, 'GET', `${CMS}/zz`)).body,
      failure('"message":"configmaps \\"zz\\" not found","reason":"NotFound","details":{"name":"zz","kind":"configmaps"},"code":404'),
    );
    assert.equal(
      (await call(s, 'GET', '/apis/apps/v1/namespaces/default/deployments/zz')).body,
      failure(
        '"message":"deployments.apps \\"zz\\" not found","reason":"NotFound","details":{"name":"zz","group":"apps","kind":"deployments"},"code":404',
      ),
    );
    s.stop();
  });

  it('writes 405 MethodNotAllowed with the resource but no name', async () => {
    const s = server();
    const r = await call(s, 'DELETE', '/api/v1/namespaces');
    assert.equal(r.status, 405);
    assert.equal(
      r.body,
      failure(
        '"message":"deletecollection is not supported on resources of kind \\"namespaces\\"","reason":"MethodNotAllowed","details":{"kind":"namespaces"},"code":405',
      ),
    );
    s.stop();
  });

  it('writes 406 NotAcceptable naming the media types served for objects', async () => {
    const s = server();
    const r = await call(s, 'GET', CMS, undefined, { accept: 'application/xml' });
    assert.equal(r.status, 406);
    assert.equal(
      r.body,
      failure(
        '"message":"only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf","reason":"NotAcceptable","code":406',
      ),
    );
    s.stop();
  });

  it('writes 409 AlreadyExists as the Python client expects it, byte for byte', async () => {
    const s = server();
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'mock-2' }, spec: { ports: [{ port: 80 }] } };
    await call(s, 'POST', '/api/v1/namespaces/default/services', svc);
    const r = await call(s, 'POST', '/api/v1/namespaces/default/services', svc);
    assert.equal(
      r.body,
      failure(
        '"message":"services \\"mock-2\\" already exists","reason":"AlreadyExists","details":{"name":"mock-2","kind":"services"},"code":409',
      ),
    );
    s.stop();
  });

  it('writes 409 Conflict for a stale resourceVersion', async () => {
    const s = server();
    await call(s, 'POST', CMS, cm('a'));
    await call(s, 'PUT', `${CMS}/a`, cm('a', { k: 'v' }));
    const r = await call(s, 'PUT', `${CMS}/a`, cm('a', {}, { resourceVersion: '1' }));
    assert.equal(r.status, 409);
    assert.equal(
      r.body,
      failure(
        '"message":"Operation cannot be fulfilled on configmaps \\"a\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"a","kind":"configmaps"},"code":409',
      ),
    );
    s.stop();
  });

  it('writes a server-side apply conflict with its causes only, as NewApplyConflict does', async () => {
    const s = server();
    const apply = (manager: string, force = false) =>
      call(s, 'PATCH', `${CMS}/a?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify(cm('a', { x: manager })), {
        'content-type': 'application/apply-patch+yaml',
      });
    await apply('one');
    const r = await apply('two');
    assert.equal(r.status, 409);
    assert.equal(
      r.body,
      failure(
        '"message":"Apply failed with 1 conflict: conflict with \\"one\\": .data.x","reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \\"one\\"","field":".data.x"}]},"code":409',
      ),
    );
    s.stop();
  });

  it('writes 410 Expired for a read older than the compacted history, and as a watch ERROR event', async () => {
    const s = server();
    await call(s, 'POST', CMS, cm('a'));
    s.compact();
    const current = JSON.parse((await call(s, 'GET', CMS)).body).metadata.resourceVersion;
    const expired = `"message":"too old resource version: 1 (${current})","reason":"Expired","code":410`;
    const r = await call(s, 'GET', `${CMS}?resourceVersion=1&resourceVersionMatch=Exact`);
    assert.equal(r.status, 410);
    assert.equal(r.body, failure(expired));
    const w = await call(s, 'GET', `${CMS}?watch=true&resourceVersion=1`);
    const [line] = await watchLines(w, 1);
    assert.equal(line, `{"type":"ERROR","object":${failure(expired).trimEnd()}}\n`);
    s.stop();
  });

  it('writes 413 RequestEntityTooLarge with the Go wording for a body over the limit and for a long JSON patch', async () => {
    await using api = await startApi();
    const big = await api.call('POST', CMS, 'x'.repeat(3 * 1024 * 1024 + 1));
    assert.equal(big.status, 413);
    assert.equal(big.text, failure('"message":"Request entity too large: limit is 3145728","reason":"RequestEntityTooLarge","code":413'));
    await api.call('POST', CMS, cm('a'));
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
    const patch = await api.call('PATCH', `${CMS}/a`, ops, { 'content-type': 'application/json-patch+json' });
    assert.equal(
      patch.text,
      failure(
        '"message":"Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001","reason":"RequestEntityTooLarge","code":413',
      ),
    );
  });

  it('writes 415 UnsupportedMediaType listing the patch types', async () => {
    const s = server();
    await call(s, 'POST', CMS, cm('a'));
    const r = await call(s, 'PATCH', `${CMS}/a`, '{}', { 'content-type': 'text/plain' });
    assert.equal(r.status, 415);
    assert.equal(
      r.body,
      failure(
        '"message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml","reason":"UnsupportedMediaType","code":415',
      ),
    );
    s.stop();
  });

  it('writes 422 Invalid with the Kind in details and every cause as reason, message, field', async () => {
    const s = server();
    const rule =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const cause = `Invalid value: \\"Bad_Name\\": ${rule}`;
    const r = await call(s, 'POST', CMS, cm('Bad_Name'));
    assert.equal(r.status, 422);
    assert.equal(
      r.body,
      failure(
        `"message":"ConfigMap \\"Bad_Name\\" is invalid: metadata.name: ${cause}","reason":"Invalid","details":{"name":"Bad_Name","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid","message":"${cause}","field":"metadata.name"}]},"code":422`,
      ),
    );
    s.stop();
  });

  it('writes 429 TooManyRequests with retryAfterSeconds, and the Retry-After header beside it', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'slow down', reason: 'TooManyRequests' };
    assert.equal(
      statusJson({ ...status, details: { retryAfterSeconds: 2 }, code: 429 }) + '\n',
      failure('"message":"slow down","reason":"TooManyRequests","details":{"retryAfterSeconds":2},"code":429'),
    );
  });

  it('writes 500 InternalError with the error as its one cause', () => {
    const r = errorResponse(new Error('boom'));
    assert.equal(r.status, 500);
    assert.equal(
      r.body,
      failure('"message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500'),
    );
  });

  it('writes 504 Timeout with causes and retryAfterSeconds, and the Retry-After header', async () => {
    const s = server();
    const current = JSON.parse((await call(s, 'GET', CMS)).body).metadata.resourceVersion;
    const r = await call(s, 'GET', `${CMS}/a?resourceVersion=999`);
    assert.equal(r.status, 504);
    assert.equal(r.headers['retry-after'], '1');
    assert.equal(
      r.body,
      failure(
        `"message":"Timeout: Too large resource version: 999, current: ${current}","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504`,
      ),
    );
    s.stop();
  });

  it('escapes <, >, & and the line and paragraph separators in messages as Go does', () => {
    assert.equal(
      statusJson({ status: 'Failure', message: 'a <b> & c\u2028\u2029', reason: 'BadRequest', code: 400 }) + '\n',
      failure('"message":"a \\u003cb\\u003e \\u0026 c\\u2028\\u2029","reason":"BadRequest","code":400'),
    );
  });
});

describe('other bodies clients compare, byte for byte', () => {
  it('writes the delete Status with name, kind and uid, and no code', async () => {
    const s = server();
    const uid = JSON.parse((await call(s, 'POST', CMS, cm('a'))).body).metadata.uid;
    const r = await call(s, 'DELETE', `${CMS}/a`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    assert.equal(r.status, 200);
    assert.equal(
      r.body,
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"configmaps","uid":"${uid}"}}\n`,
    );
    s.stop();
  });

  it("writes a list's metadata as resourceVersion, continue, remainingItemCount, leaving out what is unset", async () => {
    const s = server();
    for (const n of ['a', 'b', 'c']) await call(s, 'POST', CMS, cm(n));
    const page = await call(s, 'GET', `${CMS}?limit=1`);
    const meta = page.body.slice(page.body.indexOf('"metadata":'), page.body.indexOf(',"items"'));
    assert.match(meta, /^"metadata":\{"resourceVersion":"\d+","continue":"[^"]+","remainingItemCount":2\}$/);
    const all = await call(s, 'GET', CMS);
    assert.match(all.body, /^\{"kind":"ConfigMapList","apiVersion":"v1","metadata":\{"resourceVersion":"\d+"\},"items":\[/);
    assert.ok(all.body.endsWith(']}\n'));
    s.stop();
  });

  it('writes each watch event as {"type":…,"object":…} on its own line', async () => {
    const s = server();
    const w = await call(s, 'GET', `${CMS}?watch=true`);
    const lines = watchLines(w, 1);
    const created = (await call(s, 'POST', CMS, cm('a'))).body;
    assert.deepEqual(await lines, [`{"type":"ADDED","object":${created.trimEnd()}}\n`]);
    s.stop();
  });

  it('escapes <, > and & in stored objects as Go does, in gets, lists and watches alike', async () => {
    const s = server();
    const created = await call(s, 'POST', CMS, cm('a', { html: '<b>&' }));
    assert.ok(created.body.includes('"html":"\\u003cb\\u003e\\u0026"'), created.body);
    assert.ok((await call(s, 'GET', CMS)).body.includes('"html":"\\u003cb\\u003e\\u0026"'));
    s.stop();
  });

  it('writes a Table in Go field order: kind, apiVersion, metadata, columnDefinitions, rows', async () => {
    const s = server();
    await call(s, 'POST', CMS, cm('a'));
    const r = await call(s, 'GET', CMS, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.match(r.body, /^\{"kind":"Table","apiVersion":"meta.k8s.io\/v1","metadata":\{"resourceVersion":"\d+"\},"columnDefinitions":\[/);
    const t = JSON.parse(r.body);
    assert.deepEqual(Object.keys(t.columnDefinitions[0]), ['name', 'type', 'format', 'description', 'priority']);
    assert.deepEqual(Object.keys(t.rows[0]), ['cells', 'object']);
    s.stop();
  });

  it('writes legacy discovery for /api exactly, and /version indented without a final newline', async () => {
    const s = server();
    assert.equal(
      (await call(s, 'GET', '/api')).body,
      '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}\n',
    );
    const v = (await call(s, 'GET', '/version')).body;
    assert.match(v, /^\{\n {2}"major": "1",\n/);
    assert.ok(v.endsWith('\n}'));
    s.stop();
  });
});
