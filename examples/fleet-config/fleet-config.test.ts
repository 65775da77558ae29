// The FleetConfig operator against a hub and member clusters, each an in-process API server: it
// propagates to the members its selector picks, follows members joining and leaving, reports a
// partitioned member in the status and converges it once healed, cleans up through its finalizer,
// and goes on from a second replica when the first is cut off from the hub.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, noopLogger } from 'kube-converge/meta';
import { Fleet } from 'kube-converge/multicluster';
import { PartitionProxy, TestFleet, eventually } from 'kube-converge/testing';
import type { Manager } from 'kube-converge/manager';
import { LOAD_STRETCH } from '../../test/e2e/load-bounds.js';
import { addFleetConfigController } from './controller.js';
import { FleetConfig } from './types.js';

const timings = { memberTimeoutMs: 500, retryAfterMs: 200 };
/**
 * How long a reachable member may wait for a change: the reconcile in flight may be waiting out an
 * unreachable member's write, then one more reconcile (and its retry) runs — stretched by the load.
 */
const converged = { timeoutMs: LOAD_STRETCH * 2 * (timings.memberTimeoutMs + timings.retryAfterMs) };

const labels = (name: string) => ({ env: name.startsWith('prod') ? 'prod' : 'dev' });
const start = (members: string[]) => TestFleet.start({ members, labels, hubCrds: [FleetConfig.crd()] });

/** Runs the operator on the hub (through `server` when given, to cut it off later). */
async function operator(
  testFleet: TestFleet,
  options: { server?: string; identity?: string } = {},
): Promise<{ local: Manager; run: Promise<void> }> {
  const local = await testFleet.hub.newManager({
    logger: noopLogger,
    ...(options.server ? { config: { ...testFleet.hub.restConfig(), server: options.server } } : {}),
    ...(options.identity
      ? {
          leaderElection: {
            id: 'fleet-config',
            namespace: 'default',
            identity: options.identity,
            leaseDurationMs: 2_000,
            renewDeadlineMs: 1_200,
            retryPeriodMs: 200,
          },
        }
      : {}),
  });
  const fleet = new Fleet({ local, provider: testFleet.provider() });
  addFleetConfigController(fleet, timings);
  return { local, run: local.start() };
}

const fleetConfig = (data: Record<string, string>, env?: string): FleetConfig => ({
  apiVersion: 'fleet.converge.dev/v1alpha1',
  kind: 'FleetConfig',
  metadata: { name: 'shared', namespace: 'default' },
  spec: { ...(env ? { clusterSelector: { matchLabels: { env } } } : {}), configMap: { name: 'shared', namespace: 'default', data } },
});

const dataIn = async (testFleet: TestFleet, member: string) => {
  try {
    return (await testFleet.member(member).env.client.get(ConfigMapResource, { namespace: 'default', name: 'shared' })).data;
  } catch {
    return undefined;
  }
};
const statusOf = async (testFleet: TestFleet) =>
  (await testFleet.hub.client.get(FleetConfig, { namespace: 'default', name: 'shared' })).status;

describe('FleetConfig operator', () => {
  it('propagates to the members its selector picks, follows joins and leaves, and cleans up on delete', async () => {
    await using testFleet = await start(['prod-a', 'prod-b', 'dev-a']);
    const op = await operator(testFleet);
    try {
      await testFleet.hub.client.create(FleetConfig, fleetConfig({ mode: 'blue' }, 'prod'));
      await eventually(
        async () => (await dataIn(testFleet, 'prod-a'))?.['mode'] === 'blue' && (await dataIn(testFleet, 'prod-b'))?.['mode'] === 'blue',
      );
      assert.equal(await dataIn(testFleet, 'dev-a'), undefined, 'the selector leaves dev-a out');
      await eventually(
        async () => (await statusOf(testFleet))?.clusters?.map((c) => `${c.name}@${c.syncedGeneration}`).join() === 'prod-a@1,prod-b@1',
      );

      await testFleet.add('prod-c');
      await eventually(async () => (await dataIn(testFleet, 'prod-c'))?.['mode'] === 'blue');
      await testFleet.remove('prod-b');
      await eventually(async () => (await statusOf(testFleet))?.clusters?.map((c) => c.name).join() === 'prod-a,prod-c');

      await testFleet.hub.client.delete(FleetConfig, { namespace: 'default', name: 'shared' });
      await eventually(async () => (await dataIn(testFleet, 'prod-a')) === undefined && (await dataIn(testFleet, 'prod-c')) === undefined);
      await eventually(async () => {
        try {
          await testFleet.hub.client.get(FleetConfig, { namespace: 'default', name: 'shared' });
          return false;
        } catch {
          return true;
        }
      });
    } finally {
      await op.local.shutdown();
      await op.run;
    }
  });

  it('reports a partitioned member in the status, keeps the others in step, and converges it once healed', async () => {
    await using testFleet = await start(['prod-a', 'prod-b']);
    const op = await operator(testFleet);
    try {
      await testFleet.hub.client.create(FleetConfig, fleetConfig({ mode: 'blue' }));
      await eventually(async () => (await dataIn(testFleet, 'prod-b'))?.['mode'] === 'blue');
      testFleet.partition('prod-b');
      const current = await testFleet.hub.client.get(FleetConfig, { namespace: 'default', name: 'shared' });
      await testFleet.hub.client.update(FleetConfig, {
        ...current,
        spec: { ...current.spec, configMap: { ...current.spec.configMap, data: { mode: 'green' } } },
      });
      await eventually(async () => (await dataIn(testFleet, 'prod-a'))?.['mode'] === 'green', converged);
      await eventually(async () => {
        const b = (await statusOf(testFleet))?.clusters?.find((c) => c.name === 'prod-b');
        return b?.lastError !== undefined && b.syncedGeneration === 1;
      }, converged);
      assert.equal((await statusOf(testFleet))?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');

      testFleet.heal('prod-b');
      await eventually(async () => (await dataIn(testFleet, 'prod-b'))?.['mode'] === 'green', converged);
      await eventually(async () => (await statusOf(testFleet))?.conditions?.find((c) => c.type === 'Ready')?.status === 'True', converged);
    } finally {
      await op.local.shutdown();
      await op.run;
    }
  });

  it('goes on from the second replica when the leading one is cut off from the hub', async () => {
    await using testFleet = await start(['prod-a']);
    const hub = new URL(testFleet.hub.url);
    const proxy = await PartitionProxy.start({ host: hub.hostname, port: Number(hub.port) });
    const first = await operator(testFleet, { server: `${hub.protocol}//${hub.hostname}:${proxy.port}`, identity: 'first' });
    // Attached at once: the first replica's run rejects when it loses the lease, before the test looks.
    const firstEnded = first.run.then(
      () => undefined,
      (err: unknown) => err,
    );
    await first.local.elected();
    const second = await operator(testFleet, { identity: 'second' });
    try {
      await testFleet.hub.client.create(FleetConfig, fleetConfig({ mode: 'blue' }));
      await eventually(async () => (await dataIn(testFleet, 'prod-a'))?.['mode'] === 'blue');
      proxy.partition();
      await second.local.elected();
      const current = await testFleet.hub.client.get(FleetConfig, { namespace: 'default', name: 'shared' });
      await testFleet.hub.client.update(FleetConfig, {
        ...current,
        spec: { ...current.spec, configMap: { ...current.spec.configMap, data: { mode: 'green' } } },
      });
      await eventually(async () => (await dataIn(testFleet, 'prod-a'))?.['mode'] === 'green');
      assert.equal(((await firstEnded) as { code?: string } | undefined)?.code, 'CONVERGE_LEADER_ELECTION_LOST');
    } finally {
      proxy.heal();
      await Promise.all([first.local.shutdown(), second.local.shutdown()]);
      await Promise.allSettled([first.run, second.run]);
      await proxy.stop();
    }
  });
});
