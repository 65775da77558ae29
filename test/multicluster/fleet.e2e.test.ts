// A fleet against real in-process servers: members found through kubeconfig Secrets in a hub, one
// controller reconciling ConfigMaps in every member, members joining, leaving, partitioned and healed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, NamespaceResource, SecretResource, noopLogger, type KubeObject, type Logger } from 'kube-converge/meta';
import { enqueueRequestsFromMapFunc } from 'kube-converge/controller';
import { Fleet, fleetControllerManagedBy, namespacesProvider, type ClusterRequest } from 'kube-converge/multicluster';
import { TestFleet, eventually } from 'kube-converge/testing';

const STAMP = 'fleet.converge.dev/reconciled-in';

/** A fleet on `testFleet`'s hub whose controller stamps every ConfigMap named `app` with its cluster's name. */
async function stampingFleet(testFleet: TestFleet, filter?: (labels: Readonly<Record<string, string>>) => boolean) {
  const local = await testFleet.hub.newManager({ logger: noopLogger });
  const fleet = new Fleet({ local, provider: testFleet.provider() });
  const seen: ClusterRequest[] = [];
  const builder = fleetControllerManagedBy(fleet).for(ConfigMapResource);
  if (filter) builder.onClusters((c) => filter(c.labels));
  builder.complete(async (req, ctx) => {
    seen.push(req);
    if (req.name !== 'app') return;
    const cm = await ctx.client.get(ConfigMapResource, req);
    if (cm?.metadata.annotations?.[STAMP] === ctx.cluster.name) return;
    await ctx.client.patch(ConfigMapResource, req, { metadata: { annotations: { [STAMP]: ctx.cluster.name } } }, 'merge');
  });
  const run = local.start();
  return { fleet, local, run, seen };
}

const appConfigMap = { metadata: { name: 'app', namespace: 'default' }, data: { k: 'v' } };
const stampOf = async (testFleet: TestFleet, member: string) =>
  (await testFleet.member(member).env.client.get(ConfigMapResource, { namespace: 'default', name: 'app' })).metadata.annotations?.[STAMP];

describe('a fleet of in-process clusters', () => {
  it('reconciles each member with requests that carry the cluster, and its own client', async () => {
    await using testFleet = await TestFleet.start({ members: 3 });
    for (const m of testFleet.members()) await m.env.client.create(ConfigMapResource, appConfigMap);
    const { local, run, seen } = await stampingFleet(testFleet);
    try {
      for (const m of testFleet.members()) await eventually(async () => (await stampOf(testFleet, m.name)) === m.name);
      const clusters = new Set(seen.filter((r) => r.name === 'app').map((r) => r.cluster));
      assert.deepEqual([...clusters].sort(), ['member-0', 'member-1', 'member-2']);
      const metrics = await local.metrics.registry.metrics();
      assert.match(metrics, /^converge_fleet_engaged_clusters 3$/m);
      assert.match(metrics, /^converge_fleet_reconcile_total\{controller="configmap",cluster="member-1",result="success"\} \d+$/m);
    } finally {
      await local.shutdown();
      await run;
    }
  });

  it('engages a member that joins and disengages one that leaves', async () => {
    await using testFleet = await TestFleet.start({ members: 1 });
    const { fleet, local, run } = await stampingFleet(testFleet);
    try {
      await eventually(() => fleet.get('member-0') !== undefined);
      const joined = await testFleet.add('member-new');
      await eventually(() => fleet.get('member-new') !== undefined);
      await joined.env.client.create(ConfigMapResource, appConfigMap);
      await eventually(async () => (await stampOf(testFleet, 'member-new')) === 'member-new');
      const left = fleet.get('member-0')!;
      await testFleet.remove('member-0');
      await eventually(() => fleet.get('member-0') === undefined && left.signal.aborted);
      assert.deepEqual(
        fleet.clusters().map((c) => c.name),
        ['member-new'],
      );
      const metrics = await local.metrics.registry.metrics();
      assert.doesNotMatch(metrics, /cluster="member-0"/, "a disengaged cluster's series go with it");
      assert.match(metrics, /cluster="member-new"/);
    } finally {
      await local.shutdown();
      await run;
    }
  });

  it('keeps converging the other members while one is partitioned, and that one again once healed', async () => {
    await using testFleet = await TestFleet.start({ members: 2 });
    const { fleet, local, run } = await stampingFleet(testFleet);
    try {
      await eventually(() => fleet.clusters().length === 2);
      testFleet.partition('member-1');
      await testFleet.member('member-0').env.client.create(ConfigMapResource, appConfigMap);
      await testFleet.member('member-1').env.client.create(ConfigMapResource, appConfigMap);
      await eventually(async () => (await stampOf(testFleet, 'member-0')) === 'member-0');
      assert.equal(await stampOf(testFleet, 'member-1'), undefined, 'a partitioned member is not reached');
      testFleet.heal('member-1');
      await eventually(async () => (await stampOf(testFleet, 'member-1')) === 'member-1');
    } finally {
      await local.shutdown();
      await run;
    }
  });

  it('runs a controller only on the clusters its filter accepts', async () => {
    await using testFleet = await TestFleet.start({ members: ['prod-a', 'dev-a'], labels: (n) => ({ env: n.split('-')[0]! }) });
    for (const m of testFleet.members()) await m.env.client.create(ConfigMapResource, appConfigMap);
    const { local, run, seen } = await stampingFleet(testFleet, (labels) => labels['env'] === 'prod');
    try {
      await eventually(async () => (await stampOf(testFleet, 'prod-a')) === 'prod-a');
      assert.equal(await stampOf(testFleet, 'dev-a'), undefined);
      assert.ok(seen.every((r) => r.cluster === 'prod-a'));
    } finally {
      await local.shutdown();
      await run;
    }
  });

  it('leaves out a member whose kubeconfig Secret cannot be read, and engages the others', async () => {
    await using testFleet = await TestFleet.start({ members: 1 });
    await testFleet.hub.client.create(SecretResource, {
      metadata: { name: 'broken', namespace: testFleet.namespace, labels: { 'multicluster.converge.dev/kubeconfig': 'true' } },
      stringData: { kubeconfig: 'not: [a kubeconfig' },
    });
    const { fleet, local, run } = await stampingFleet(testFleet);
    try {
      await eventually(() => fleet.get('member-0') !== undefined);
      assert.equal(fleet.get('broken'), undefined);
    } finally {
      await local.shutdown();
      await run;
    }
  });
});

describe('namespaces as clusters', () => {
  it('engages each matching namespace as a cluster whose cache holds only that namespace', async () => {
    await using testFleet = await TestFleet.start();
    const hub = testFleet.hub;
    for (const ns of ['tenant-a', 'tenant-b', 'other']) {
      await hub.client.create(NamespaceResource, { metadata: { name: ns, labels: { tenant: String(ns.startsWith('tenant')) } } });
      await hub.client.create(ConfigMapResource, { metadata: { name: 'app', namespace: ns } });
    }
    const local = await hub.newManager({ logger: noopLogger });
    const fleet = new Fleet({ local, provider: namespacesProvider({ client: hub.client, labelSelector: 'tenant=true' }) });
    const seen: ClusterRequest[] = [];
    const listed = new Map<string, string[]>();
    fleetControllerManagedBy(fleet)
      .for(ConfigMapResource)
      .complete(async (req, ctx) => {
        seen.push(req);
        listed.set(
          req.cluster,
          ctx.client.list(ConfigMapResource).map((o: KubeObject) => o.metadata.namespace ?? ''),
        );
      });
    const run = local.start();
    try {
      await eventually(() => listed.size === 2);
      assert.deepEqual([...listed.keys()].sort(), ['tenant-a', 'tenant-b']);
      for (const [cluster, namespaces] of listed)
        assert.ok(
          namespaces.every((ns) => ns === cluster),
          `${cluster} sees only its namespace`,
        );
      assert.ok(seen.every((r) => r.cluster === r.namespace));
    } finally {
      await local.shutdown();
      await run;
    }
  });
});

describe('the owner-reference lint', () => {
  it('warns once when a reconciler writes into a member an object owned by an object of the hub, and lets the write through', async () => {
    await using testFleet = await TestFleet.start({ members: 1 });
    const warnings: Record<string, unknown>[] = [];
    const logger = capturing(warnings);
    const local = await testFleet.hub.newManager({ logger });
    const fleet = new Fleet({ local, provider: testFleet.provider() });
    const source = await testFleet.hub.client.create(ConfigMapResource, { metadata: { name: 'source', namespace: 'default' } });
    let written = 0;
    fleetControllerManagedBy(fleet)
      .named('copier')
      .watchesLocal(
        ConfigMapResource,
        enqueueRequestsFromMapFunc((cm) =>
          cm.metadata.name === 'source' ? [{ cluster: 'member-0', namespace: 'default', name: 'copy' }] : [],
        ),
      )
      .complete(async (req, ctx) => {
        if (ctx.client.get(ConfigMapResource, req)) return;
        const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'source', uid: source.metadata.uid! };
        await ctx.client.create(ConfigMapResource, { metadata: { name: 'copy', namespace: 'default', ownerReferences: [owner] } });
        written++;
      });
    const run = local.start();
    try {
      await eventually(() => written === 1);
      assert.equal(warnings.length, 1, 'one warning for the hub owner');
      assert.equal(warnings[0]!['ownerCluster'], 'the hub');
      assert.equal(warnings[0]!['cluster'], 'member-0');
      assert.ok(
        await testFleet.member('member-0').env.client.get(ConfigMapResource, { namespace: 'default', name: 'copy' }),
        'the write went through',
      );
    } finally {
      await local.shutdown();
      await run;
    }
  });
});

/** A logger that keeps the fields of every warning of the fleet's lint. */
function capturing(warnings: Record<string, unknown>[]): Logger {
  const make = (fields: Record<string, unknown>): Logger => ({
    debug: () => {},
    info: () => {},
    error: () => {},
    warn: (f) => {
      if (fields['component'] === 'fleet-lint') warnings.push({ ...fields, ...f });
    },
    child: (f) => make({ ...fields, ...f }),
  });
  return make({});
}
