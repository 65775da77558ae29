// Boolean query parameters decode as apimachinery's parameter codec decodes them: absent is unset, `false` and `0` in
// any case are false, every other value (an empty one included) is true. Checked for each boolean parameter the server
// reads, by the effect the parameter has, and over real HTTP for the Python client's `watch=True`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { startApi, cm } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** Raw query strings for one parameter, so `?p` (no `=`) is sent as written. */
const TRUE_FORMS = ['=true', '=True', '=TRUE', '=1', '', '=', '=yes', '=no', '=off', '=2', '=%20false'];
const FALSE_FORMS = ['=false', '=False', '=FALSE', '=fAlSe', '=0'];
const TABLE = [...TRUE_FORMS.map((f) => [f, true] as const), ...FALSE_FORMS.map((f) => [f, false] as const)];

async function call(api: ApiServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const r = await api.handle({
    method,
    path,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { ...r, json: r.stream ? undefined : JSON.parse(r.body) };
}

/** Attaches a collecting sink to a watch response and returns the event types written so far (and later). */
function collect(stream: NonNullable<Awaited<ReturnType<ApiServer['handle']>>['stream']>): string[] {
  const types: string[] = [];
  stream.attach({ write: (c) => (types.push((JSON.parse(c) as { type: string }).type), true), end: () => {} });
  return types;
}

/** How each boolean parameter shows: resolves true when the server took the parameter as true. */
const effects: Record<string, (form: string) => Promise<boolean>> = {
  async watch(form) {
    const api = createApiServer();
    try {
      const r = await call(api, 'GET', `${CMS}?watch${form}`);
      assert.equal(r.status, 200, r.body);
      return r.stream !== undefined;
    } finally {
      api.stop();
    }
  },
  async sendInitialEvents(form) {
    const api = createApiServer();
    try {
      await call(api, 'POST', CMS, cm('a'));
      const r = await call(api, 'GET', `${CMS}?watch=true&resourceVersionMatch=NotOlderThan&sendInitialEvents${form}`);
      assert.ok(r.stream, r.body);
      return collect(r.stream).includes('ADDED');
    } finally {
      api.stop();
    }
  },
  async allowWatchBookmarks(form) {
    const clock = new FakeClock();
    const api = createApiServer({ clock, bookmarkIntervalMs: 1000 });
    try {
      const a = (await call(api, 'POST', CMS, cm('a'))).json;
      const r = await call(api, 'GET', `${CMS}?watch=true&resourceVersion=${a.metadata.resourceVersion}&allowWatchBookmarks${form}`);
      assert.ok(r.stream, r.body);
      const types = collect(r.stream);
      await call(api, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } });
      await clock.advance(1000);
      return types.includes('BOOKMARK');
    } finally {
      api.stop();
    }
  },
  async force(form) {
    const api = createApiServer();
    const apply = (manager: string, x: string, query = '') =>
      call(
        api,
        'PATCH',
        `${CMS}/a?fieldManager=${manager}${query}`,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x } },
        { 'content-type': 'application/apply-patch+yaml' },
      );
    try {
      assert.equal((await apply('one', '1')).status, 201);
      const r = await apply('two', '2', `&force${form}`);
      assert.ok(r.status === 200 || r.status === 409, r.body);
      return r.status === 200;
    } finally {
      api.stop();
    }
  },
  async orphanDependents(form) {
    const api = createApiServer();
    try {
      await call(api, 'POST', CMS, cm('held', {}, { finalizers: ['example.com/hold'] }));
      const r = await call(api, 'DELETE', `${CMS}/held?orphanDependents${form}`);
      // True orphans (the `orphan` finalizer); false is the legacy cascade, answered 202 while the object is held.
      if (r.status === 200 && (r.json.metadata.finalizers as string[]).includes('orphan')) return true;
      assert.equal(r.status, 202, r.body);
      return false;
    } finally {
      api.stop();
    }
  },
};

describe('boolean query parameters', () => {
  for (const [name, effect] of Object.entries(effects)) {
    it(`decodes ${name} as true for every value but false and 0 in any case, an empty one included`, async () => {
      const seen: string[] = [];
      for (const [form, expected] of TABLE) {
        if ((await effect(form)) !== expected) seen.push(`?${name}${form} was taken as ${String(!expected)}`);
      }
      assert.deepEqual(seen, []);
    });
  }

  it('lists when watch is absent, and when watch is false', async () => {
    const api = createApiServer();
    try {
      for (const path of [CMS, `${CMS}?watch=false`, `${CMS}?watch=0`]) {
        const r = await call(api, 'GET', path);
        assert.equal(r.json.kind, 'ConfigMapList', path);
      }
    } finally {
      api.stop();
    }
  });

  it('takes the first value of a repeated boolean parameter', async () => {
    const api = createApiServer();
    try {
      assert.equal((await call(api, 'GET', `${CMS}?watch=false&watch=true`)).stream, undefined);
      const r = await call(api, 'GET', `${CMS}?watch=True&watch=false`);
      assert.ok(r.stream);
      r.stream.detach();
    } finally {
      api.stop();
    }
  });

  it('streams events for watch=True over HTTP, as the Python client asks for them', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const w = await api.watch(`${CMS}?watch=True`);
    assert.equal(w.status, 200);
    const first = await w.next();
    assert.deepEqual([first?.type, first?.object.metadata.name], ['ADDED', 'a']);
    await api.call('POST', CMS, cm('b'));
    const live = await w.next();
    assert.deepEqual([live?.type, live?.object.metadata.name], ['ADDED', 'b']);
  });
});
