// The dashboard's and explain's HTTP paths on the health-probe server, without an API server: the
// option needs the probe server, the page and its snapshot are served only when it is on, and
// `GET /debug/converge/` lists the kinds `converge why` can ask about. (The page itself, in a browser:
// test/e2e/dashboard.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from 'kube-converge/client';
import { controllerManagedBy } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { defineResource, noopLogger } from 'kube-converge/meta';

const App = defineResource({ group: 'apps.example.dev', version: 'v1', kind: 'App', plural: 'apps', namespaced: true });

/** A client no test here may call: the manager below has no informer and makes no request. */
const unusedClient = new Proxy(
  {},
  { get: (_t, verb) => () => Promise.reject(new Error(`unexpected API call: ${String(verb)}`)) },
) as Client;

async function probeServer(options: { dashboard: boolean }): Promise<{ url: string; stop: () => Promise<void> }> {
  const mgr = await createManager({ client: unusedClient, logger: noopLogger, healthProbeBindAddress: '127.0.0.1:0', ...options });
  controllerManagedBy(mgr)
    .for(App)
    .complete(async () => {});
  const running = mgr.start();
  const { healthProbe } = await mgr.listening();
  return {
    url: healthProbe!,
    stop: async () => {
      await mgr.shutdown();
      await running.catch(() => {});
    },
  };
}

describe('the dashboard endpoint', () => {
  it('refuses the dashboard option without a health-probe server', async () => {
    await assert.rejects(createManager({ client: unusedClient, logger: noopLogger, dashboard: true }), {
      code: 'CONVERGE_INVALID_OPTION',
      message: /dashboard.*healthProbeBindAddress/,
    });
  });

  it('serves the page and its snapshot when on: self-contained HTML, and the controllers as JSON', async () => {
    const server = await probeServer({ dashboard: true });
    try {
      const page = await fetch(`${server.url}/dashboard`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const html = await page.text();
      assert.match(html, /<title>Converge dashboard<\/title>/);
      assert.doesNotMatch(html, /<(script|link|img)[^>]+(src|href)="(https?:)?\/\//, 'no external asset');
      const state = (await (await fetch(`${server.url}/dashboard/state`)).json()) as {
        controllers: { name: string; kind: string; maxWorkers: number }[];
        notConverged: unknown[];
      };
      assert.deepEqual(
        state.controllers.map((c) => [c.name, c.kind, c.maxWorkers]),
        [['app', 'App', 1]],
      );
      assert.deepEqual(state.notConverged, []);
      assert.equal((await fetch(`${server.url}/dashboard/nope`)).status, 404);
      assert.equal((await fetch(`${server.url}/dashboard`, { method: 'POST' })).status, 405);
    } finally {
      await server.stop();
    }
  });

  it('answers 404 on the dashboard paths when off, and lists the kinds explain knows at /debug/converge/', async () => {
    const server = await probeServer({ dashboard: false });
    try {
      assert.equal((await fetch(`${server.url}/dashboard`)).status, 404);
      assert.equal((await fetch(`${server.url}/dashboard/state`)).status, 404);
      const listing = (await (await fetch(`${server.url}/debug/converge/`)).json()) as { kinds: unknown[] };
      assert.deepEqual(listing.kinds, [{ group: 'apps.example.dev', version: 'v1', kind: 'App', plural: 'apps', namespaced: true }]);
    } finally {
      await server.stop();
    }
  });
});
