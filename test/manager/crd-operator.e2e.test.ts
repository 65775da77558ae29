// End-to-end: an operator for a custom resource, as an author would write it — `for` a CRD, `owns`
// ConfigMaps, `watches` Secrets through a field index, status through the status writer, cleanup
// through a finalizer — against a TestEnv API server, through the public API only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { controllerManagedBy, enqueueRequestsFromMapFunc } from 'kube-converge/controller';
import { Finalizers, createOrPatch, createOrUpdate, setControllerReference, type Manager } from 'kube-converge/manager';
import {
  ConfigMapResource,
  SecretResource,
  clone,
  defineResource,
  namespacedNameOf,
  setStatusCondition,
  type Condition,
  type ObjectOf,
} from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { crdWithStatus } from './fixtures/crd-with-status.js';

interface SiteSpec {
  secretRef: string;
  greeting: string;
}
interface SiteStatus {
  renderedFrom?: string;
  conditions?: Condition[];
}
const Site = defineResource<SiteSpec, SiteStatus>({
  group: 'e2e.converge.dev',
  version: 'v1',
  kind: 'Site',
  plural: 'sites',
  namespaced: true,
});
const NS = 'default';
const FINALIZER = 'e2e.converge.dev/cleanup';

const crd = crdWithStatus(Site, {
  spec: { secretRef: { type: 'string' }, greeting: { type: 'string' } },
  status: { renderedFrom: { type: 'string' } },
});

interface Stats {
  reconciles: string[];
  cleaned: string[];
  statusWrites: string[];
}

/** The operator under test: renders `<site>-page` from the site's greeting and its Secret. */
function siteOperator(mgr: Manager, stats: Stats): void {
  mgr.indexField(Site, 'spec.secretRef', (s) => [s.spec.secretRef]);
  const finalizers = new Finalizers<ObjectOf<typeof Site>>();
  finalizers.register(FINALIZER, { finalize: (site) => void stats.cleaned.push(site.metadata.name!) });
  controllerManagedBy(mgr)
    .for(Site)
    .owns(ConfigMapResource)
    .watches(
      SecretResource,
      enqueueRequestsFromMapFunc((secret) =>
        mgr.client
          .list(Site, { namespace: secret.metadata.namespace, matchingFields: { 'spec.secretRef': secret.metadata.name! } })
          .map(namespacedNameOf),
      ),
    )
    .complete(async (req, { client, signal }) => {
      stats.reconciles.push(req.name);
      const cached = client.get(Site, req);
      if (!cached) return;
      const site = clone(cached) as typeof cached;
      const fin = await finalizers.finalize(site, { signal });
      if (fin.error) throw fin.error;
      if (fin.updated) {
        await client.update(Site, site, { signal });
        return;
      }
      if (site.metadata.deletionTimestamp) return;
      const secret = client.get(SecretResource, { ...req, name: site.spec.secretRef });
      const token = secret ? Buffer.from(secret.data?.['token'] ?? '', 'base64').toString() : '<missing>';
      await createOrUpdate(
        client,
        ConfigMapResource,
        { metadata: { name: `${req.name}-page`, namespace: NS } },
        (cm) => {
          cm.data = { page: `${site.spec.greeting} (${token})` };
          setControllerReference(site, cm, { ownerResource: Site });
        },
        { signal },
      );
      const { result } = await createOrPatch(
        client,
        Site,
        site,
        (s) => {
          s.status ??= {};
          s.status.renderedFrom = token;
          s.status.conditions ??= [];
          setStatusCondition(
            s.status.conditions,
            { type: 'Ready', status: 'True', reason: 'Rendered', message: 'page rendered' },
            Date.UTC(2026, 0, 1),
          );
        },
        { signal },
      );
      stats.statusWrites.push(`${req.name}:${result}`);
    });
}

const page = async (env: TestEnv, name: string) => env.client.get(ConfigMapResource, { namespace: NS, name: `${name}-page` });

describe('a CRD operator end to end', () => {
  it('keeps owned children, follows referenced Secrets, writes status, and runs finalizers', async () => {
    await using env = await TestEnv.start();
    const mgr = await env.newManager({ gracefulShutdownTimeoutMs: 5_000 });
    const stats: Stats = { reconciles: [], cleaned: [], statusWrites: [] };
    siteOperator(mgr, stats);
    // The manager starts before the CRD exists: the controller retries the kind instead of failing.
    const run = mgr.start();
    await new Promise((r) => setTimeout(r, 100));
    await env.installCrds([crd]);
    for (const [s, token] of [
      ['s1', 'one'],
      ['s2', 'two'],
    ]) {
      await env.client.create(SecretResource, { metadata: { name: s!, namespace: NS }, stringData: { token: token! } });
    }
    for (const [name, ref] of [
      ['a', 's1'],
      ['b', 's1'],
      ['c', 's2'],
    ]) {
      await env.client.create(Site, {
        apiVersion: Site.apiVersion,
        kind: Site.kind,
        metadata: { name: name!, namespace: NS },
        spec: { secretRef: ref!, greeting: `hi ${name}` },
      });
    }
    for (const n of ['a', 'b', 'c']) await eventually(async () => (await page(env, n)).data?.['page'] !== undefined, { timeoutMs: 10_000 });
    assert.equal((await page(env, 'a')).data?.['page'], 'hi a (one)');
    assert.equal((await page(env, 'c')).data?.['page'], 'hi c (two)');

    // Status went through the status subresource; the finalizer was added.
    const a = await eventually(async () => {
      const s = await env.client.get(Site, { namespace: NS, name: 'a' });
      return s.status?.renderedFrom === 'one' && s;
    });
    assert.equal(a.status?.conditions?.[0]?.type, 'Ready');
    assert.deepEqual(a.metadata.finalizers, [FINALIZER]);
    assert.ok(stats.statusWrites.includes('a:updatedStatusOnly'), stats.statusWrites.join());
    // Reconciles caused by the site's own status write change nothing and write nothing.
    await eventually(() => stats.statusWrites.includes('a:unchanged'));

    // Deleting an owned child brings it back.
    const old = await page(env, 'b');
    await env.client.delete(ConfigMapResource, { namespace: NS, name: 'b-page' });
    await eventually(async () => (await page(env, 'b')).metadata.uid !== old.metadata.uid);

    // Changing s1 reconciles exactly a and b.
    await new Promise((r) => setTimeout(r, 100));
    stats.reconciles.length = 0;
    await env.client.patch(SecretResource, { namespace: NS, name: 's1' }, { stringData: { token: 'uno' } }, 'merge');
    await eventually(
      async () => (await page(env, 'a')).data?.['page'] === 'hi a (uno)' && (await page(env, 'b')).data?.['page'] === 'hi b (uno)',
    );
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([...new Set(stats.reconciles)].sort(), ['a', 'b']);
    assert.equal((await page(env, 'c')).data?.['page'], 'hi c (two)');

    // Deleting a site runs its finalizer once, then the site is gone.
    await env.client.delete(Site, { namespace: NS, name: 'c' });
    await eventually(async () => {
      try {
        await env.client.get(Site, { namespace: NS, name: 'c' });
        return false;
      } catch (err) {
        return (err as { status?: { code?: number } }).status?.code === 404;
      }
    });
    assert.deepEqual(stats.cleaned, ['c']);

    await mgr.shutdown();
    await run;
  });

  it('createOrPatch patches the object and its status subresource separately and says which it wrote', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const mgr = await env.newManager();
    await mgr.getInformer(Site);
    const run = mgr.start();
    await mgr.elected();
    const key = {
      apiVersion: Site.apiVersion,
      kind: Site.kind,
      metadata: { name: 'both', namespace: NS },
      spec: { secretRef: 'x', greeting: 'hello' },
    };
    const created = await createOrPatch(mgr.client, Site, key, () => {});
    assert.equal(created.result, 'created');
    await eventually(() => mgr.client.get(Site, { namespace: NS, name: 'both' }) !== undefined);
    const both = await createOrPatch(mgr.client, Site, key, (s) => {
      s.spec.greeting = 'hey';
      s.status = { renderedFrom: 'both' };
    });
    assert.equal(both.result, 'updatedStatus');
    const onServer = await env.client.get(Site, { namespace: NS, name: 'both' });
    assert.equal(onServer.spec.greeting, 'hey');
    assert.equal(onServer.status?.renderedFrom, 'both');
    await eventually(() => mgr.client.get(Site, { namespace: NS, name: 'both' })?.status?.renderedFrom === 'both');
    const statusOnly = await createOrPatch(mgr.client, Site, key, (s) => {
      s.status = { renderedFrom: 'again' };
    });
    assert.equal(statusOnly.result, 'updatedStatusOnly');
    assert.equal((await env.client.get(Site, { namespace: NS, name: 'both' })).status?.renderedFrom, 'again');
    await mgr.shutdown();
    await run;
  });
});
