// The dashboard in a real browser: the distribution's headless Chromium (/usr/bin/chromium, which
// .ci/run installs) driven by playwright-core, against the demo's manager with both operators. It
// asserts what a person sees — both controllers with their counts, the caches synced, everything
// converged, then a broken WebApp listed with its explanation, live, without a reload — and keeps a
// screenshot at .tmp/test-artifacts/dashboard.png (git-ignored). One browser launch for the file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { createClient, loadKubeConfig } from 'kube-converge/client';
import { WebApp } from '../../../examples/webapp/types.js';
import { startDemo, type DemoProcess } from '../demo-process.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../../.tmp/test-artifacts/', import.meta.url));

/** How long the page may take to show what the test expects: it redraws once a second, as the demo converges. */
const SETTLE_MS = 15_000;

/**
 * Waits until `cell`'s text matches `pattern`, re-reading it as the page redraws. The page shows a
 * state on its first poll that the demo may not have reached (no samples applied yet reads as
 * "everything converged", with no reconciles), so each expectation waits for itself, bounded.
 */
async function untilText(cell: Locator, pattern: RegExp, what: string): Promise<void> {
  try {
    await cell.filter({ hasText: pattern }).waitFor({ timeout: SETTLE_MS });
  } catch (err) {
    const shown = await cell.textContent({ timeout: 1000 }).catch(() => '(no such cell)');
    throw new Error(`${what}: the page still shows ${JSON.stringify(shown)}, not ${pattern}, after ${SETTLE_MS} ms`, { cause: err });
  }
}

let demo: DemoProcess;
let browser: Browser;
let page: Page;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  [demo, browser] = await Promise.all([
    startDemo(),
    // Root in a container has no user namespace for Chromium's sandbox.
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] }),
  ]);
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
});

after(async () => {
  await browser?.close();
  await demo?.stop();
});

describe('the dashboard page, in Chromium', () => {
  it('shows both operators, their caches synced and every sample converged, then a broken WebApp with its explanation, live', async () => {
    await page.goto(demo.dashboardUrl);
    await page.getByRole('heading', { name: 'Converge dashboard' }).waitFor();
    const controllers = page.locator('#controllers tbody');
    await controllers.getByRole('row').filter({ hasText: 'webapp' }).first().waitFor();
    await controllers.getByRole('row').filter({ hasText: 'applicationroute' }).waitFor();

    const webapp = page.locator('#controllers tr[data-controller="webapp"] td');
    assert.equal(await webapp.nth(1).textContent(), 'WebApp');
    await untilText(webapp.nth(5), /^[1-9]\d*$/, 'the WebApp controller has succeeded reconciles');
    await untilText(webapp.nth(8), /p50 ≤ [\d.]+ s \(\d+\)/, 'the latency histogram is drawn');
    const route = page.locator('#controllers tr[data-controller="applicationroute"] td');
    assert.equal(await route.nth(1).textContent(), 'ApplicationRoute');
    const webAppCache = page.locator('#kinds tr').filter({ hasText: 'WebApp' }).locator('td');
    await untilText(webAppCache.nth(2), /^synced$/, 'the WebApp cache is synced');
    await untilText(webAppCache.nth(4), /^2$/, 'two WebApps in the cache');
    // Only now, with the samples applied and reconciled, does "converged" say something about them.
    await untilText(page.locator('#none'), /^Everything is converged\.$/, 'every sample converged');
    await page.locator('#status', { hasText: /^live · updated / }).waitFor();

    const client = createClient({ config: { ...loadKubeConfig({ path: demo.kubeconfig }), qps: -1 } });
    try {
      await client.create(WebApp, {
        apiVersion: WebApp.apiVersion,
        kind: WebApp.kind,
        metadata: { name: 'broken', namespace: 'default' },
        spec: { image: 'ghcr.io/acme/broken:1', replicas: 1, configRef: 'no-such-config' },
      });
    } finally {
      client.close();
    }
    const item = page.locator('#not-converged li').filter({ hasText: 'WebApp default/broken' });
    await item.waitFor({ timeout: SETTLE_MS });
    assert.match((await item.locator('.summary').textContent()) ?? '', /^not converged: WebApp default\/broken — .*ConfigMapNotFound/);
    assert.match((await item.textContent()) ?? '', /signs: Ready=False/);
    assert.match((await page.locator('#none').textContent()) ?? '', /^1 object\(s\) not converged/);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}dashboard.png`, fullPage: true });
  });
});
