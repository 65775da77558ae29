// The kubeconfig-folder and static providers against in-process members: files added, changed and
// removed (read on the fleet's fake clock), and a static list with one unreadable kubeconfig.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock, noopLogger } from 'kube-converge/meta';
import { Fleet, kubeconfigFolderProvider, staticProvider } from 'kube-converge/multicluster';
import { TestFleet, eventually } from 'kube-converge/testing';

describe('kubeconfig folder provider', () => {
  it('engages a cluster per file, again when the file changes, and disengages it when the file goes', async () => {
    await using testFleet = await TestFleet.start({ members: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'converge-fleet-folder-'));
    const clock = new FakeClock();
    const local = await testFleet.hub.newManager({ logger: noopLogger, clock });
    const fleet = new Fleet({ local, provider: kubeconfigFolderProvider({ path: dir, intervalMs: 1_000 }) });
    const [a, b] = testFleet.members();
    writeFileSync(join(dir, 'alpha.yaml'), a!.kubeconfigYaml);
    writeFileSync(join(dir, '.alpha.yaml.swp'), 'not a kubeconfig');
    writeFileSync(join(dir, 'broken.yaml'), 'clusters: [');
    const run = local.start();
    try {
      await eventually(() => fleet.get('alpha') !== undefined);
      const first = fleet.get('alpha')!;
      assert.deepEqual(
        fleet.clusters().map((c) => c.name),
        ['alpha'],
        'the hidden and the broken file engage nothing',
      );
      writeFileSync(join(dir, 'alpha.yaml'), b!.kubeconfigYaml);
      writeFileSync(join(dir, 'beta.kubeconfig'), b!.kubeconfigYaml);
      await clock.advance(1_000);
      await eventually(() => fleet.get('beta') !== undefined && fleet.get('alpha') !== first);
      assert.ok(first.signal.aborted, 'the changed file re-engaged alpha');
      rmSync(join(dir, 'alpha.yaml'));
      await clock.advance(1_000);
      await eventually(() => fleet.get('alpha') === undefined);
    } finally {
      await local.shutdown();
      await run;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('static provider', () => {
  it('engages every listed cluster it can reach and logs out one whose kubeconfig cannot be read', async () => {
    await using testFleet = await TestFleet.start({ members: 2, labels: (n) => ({ name: n }) });
    const local = await testFleet.hub.newManager({ logger: noopLogger });
    const fleet = new Fleet({
      local,
      provider: staticProvider({ ...testFleet.staticClusters(), missing: { kubeconfig: join(tmpdir(), 'no-such-kubeconfig') } }),
    });
    const run = local.start();
    try {
      await eventually(() => fleet.clusters().length === 2);
      assert.deepEqual(fleet.get('member-1')?.labels, { name: 'member-1' });
      assert.equal(fleet.get('missing'), undefined);
    } finally {
      await local.shutdown();
      await run;
    }
  });
});
