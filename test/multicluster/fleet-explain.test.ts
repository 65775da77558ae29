// Imports the CLI's private why command to ask through it too; the CLI has no library face.
// `explain` for an object of a member cluster: `local.explain(kind, nn, { cluster })`, the health-probe
// endpoint's `?cluster=`, the dashboard and `converge why --cluster` answer from that member's cache and the fleet
// controller's state of `{ cluster, namespace, name }` — one member's object converged while the
// same-named object of another keeps failing — and a cluster not engaged here is a NotFound-like
// answer (`CONVERGE_CLUSTER_NOT_ENGAGED`, a 404 naming the engaged clusters), never a guess.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalError } from 'kube-converge/controller';
import { ConfigMapResource, noopLogger } from 'kube-converge/meta';
import { Fleet, fleetControllerManagedBy } from 'kube-converge/multicluster';
import { TestFleet, eventually } from 'kube-converge/testing';
import { WhyError, runWhy } from '../../src/cli/why.js';

describe('explain per cluster', () => {
  it('explains a member object from its cluster and the fleet controller, and answers NotFound for a cluster not engaged', async () => {
    await using testFleet = await TestFleet.start({ members: 2 });
    for (const m of testFleet.members()) await m.env.client.create(ConfigMapResource, { metadata: { name: 'app', namespace: 'default' } });
    const local = await testFleet.hub.newManager({ logger: noopLogger, healthProbeBindAddress: '127.0.0.1:0', dashboard: true });
    const fleet = new Fleet({ local, provider: testFleet.provider() });
    fleetControllerManagedBy(fleet)
      .for(ConfigMapResource)
      .named('propagate')
      .complete(async (req) => {
        if (req.cluster === 'member-1' && req.name === 'app') throw new TerminalError(new Error('quota exceeded in member-1'));
      });
    const run = local.start();
    try {
      const nn = { namespace: 'default', name: 'app' };
      const asked = (cluster: string) => local.explain(ConfigMapResource, nn, { cluster });
      await eventually(async () => (await asked('member-0')).controllers[0]?.state?.phase === 'done');
      await eventually(async () => (await asked('member-1')).controllers[0]?.state?.phase === 'terminal');

      const good = await asked('member-0');
      assert.equal(good.cluster, 'member-0');
      assert.equal(good.converged, true, good.summary);
      assert.equal(good.cache.holdsObject, true, "read from member-0's cache");
      assert.deepEqual(good.controllers[0]!.request, { cluster: 'member-0', namespace: 'default', name: 'app' });
      assert.match(good.summary, /^converged: ConfigMap default\/app in cluster member-0 — last reconcile succeeded/);

      const bad = await asked('member-1');
      assert.equal(bad.converged, false);
      assert.equal(bad.controllers.length, 1);
      assert.match(
        bad.summary,
        /^not converged: ConfigMap default\/app in cluster member-1 — controller propagate: reconcile failed with a terminal error \(terminal error: quota exceeded in member-1\)/,
      );

      const missing = await local.explain(ConfigMapResource, { namespace: 'default', name: 'gone' }, { cluster: 'member-0' });
      assert.equal(missing.object.exists, false);
      await assert.rejects(asked('nowhere'), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'CONVERGE_CLUSTER_NOT_ENGAGED');
        assert.match(err.message, /cluster "nowhere": no cluster of that name is engaged here \(engaged: member-0, member-1\)/);
        return true;
      });
      // The hub's own ConfigMap is not the fleet controller's: explaining it names no controller.
      assert.deepEqual((await local.explain(ConfigMapResource, { namespace: testFleet.namespace, name: 'member-0' })).controllers, []);

      const probe = (await local.listening()).healthProbe!;
      const http = await fetch(`${probe}/debug/converge/core/v1/configmaps/default/app?cluster=member-1`);
      assert.equal(http.status, 200);
      assert.equal(((await http.json()) as { cluster: string }).cluster, 'member-1');
      const notFound = await fetch(`${probe}/debug/converge/core/v1/configmaps/default/app?cluster=nowhere`);
      assert.equal(notFound.status, 404);
      assert.match(await notFound.text(), /no cluster of that name is engaged here/);

      // The dashboard lists member-1's object (and not member-0's), with its explain answer.
      const state = (await (await fetch(`${probe}/dashboard/state`)).json()) as {
        notConverged: { kind: string; cluster?: string; name: string; report: { summary: string } }[];
        controllers: { name: string; lastErrors: { request: string; message: string }[] }[];
      };
      // Its last errors name the cluster: two members' default/app are different requests.
      assert.deepEqual(
        state.controllers.find((c) => c.name === 'propagate')?.lastErrors.map((e) => e.request),
        ['default/app in cluster member-1'],
      );
      assert.deepEqual(
        state.notConverged.map((o) => [o.kind, o.cluster, o.name]),
        [['ConfigMap', 'member-1', 'app']],
      );
      assert.match(state.notConverged[0]!.report.summary, /in cluster member-1 — controller propagate: reconcile failed/);

      const why = await runWhy(['configmap/app', '--cluster', 'member-1', '--url', probe], {});
      assert.match(why, /^not converged: ConfigMap default\/app in cluster member-1/);
      assert.match(why, /controller propagate: terminal/);
      await assert.rejects(runWhy(['configmap/app', '--cluster', 'nowhere', '--url', probe], {}), (err: WhyError) => {
        assert.equal(err.exitCode, 1);
        assert.match(err.message, /404: cluster "nowhere": no cluster of that name is engaged here/);
        return true;
      });
      await assert.rejects(
        runWhy(['configmap/gone', '--cluster', 'member-0', '--url', probe], {}),
        /NotFound: ConfigMap default\/gone in cluster member-0 does not exist/,
      );
    } finally {
      await local.shutdown();
      await run;
    }
  });
});
