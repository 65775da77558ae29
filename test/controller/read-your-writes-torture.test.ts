// The read-your-writes torture test: a manager whose cache lags the server by a constant delay (the
// fault-injecting client's watch lag) reconciles parents while a concurrent writer keeps changing them
// and, more often, an input ConfigMap per parent whose events wake the parent's reconcile. The
// reconciler creates a child per value of the parent's `want` (as a Job per change would be) and copies the parent's `want` into `seen` with optimistic
// concurrency. It counts the reconciles that acted on state older than their own previous writes:
// reconciles that started on a parent older than the one they wrote last, duplicate creates
// (AlreadyExists) and avoidable conflicts (a 409 on a write computed from such a stale parent). With
// read-your-writes on, all three are 0; with it off, the same run finds them. Conflicts caused by the
// concurrent writer are expected in both and are not counted as avoidable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, keyOf, realClock, type ObjectOf } from 'kube-converge/meta';
import { isAlreadyExists, isConflict } from 'kube-converge/client';
import { controllerManagedBy, enqueueRequestsFromMapFunc, labelSelectorPredicate } from 'kube-converge/controller';
import { TestEnv, eventually, faultInjectingClient } from 'kube-converge/testing';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const NS = 'default';
const PARENTS = 4;
const LAG_MS = 100;
/** The writer touches every input this often, and every parent's `want` every `WANT_EVERY` rounds. */
const WRITER_EVERY_MS = 20;
const WANT_EVERY = 8;
const WRITING_FOR_MS = 1000;

interface Counts {
  reconciles: number;
  staleReconciles: number;
  duplicateCreates: number;
  avoidableConflicts: number;
  writerConflicts: number;
}

async function torture(readYourWrites: boolean): Promise<Counts> {
  await using env = await TestEnv.start();
  const client = faultInjectingClient(env.client, { watchLag: { ms: LAG_MS, clock: realClock } });
  const mgr = await env.newManager({ client });
  const counts: Counts = { reconciles: 0, staleReconciles: 0, duplicateCreates: 0, avoidableConflicts: 0, writerConflicts: 0 };
  /** The resourceVersion of the reconciler's last successful write of each parent. */
  const lastWritten = new Map<string, number>();

  controllerManagedBy(mgr)
    .for(ConfigMapResource, { predicates: [labelSelectorPredicate({ matchLabels: { role: 'parent' } })] })
    .watches(
      ConfigMapResource,
      enqueueRequestsFromMapFunc((o: ConfigMap) => (o.data?.['input-of'] ? [{ namespace: NS, name: o.data['input-of'] }] : [])),
    )
    .withOptions({ readYourWrites, maxConcurrentReconciles: 2 })
    .complete(async (req, { client: c }) => {
      const parent = c.get(ConfigMapResource, req);
      if (!parent) return;
      counts.reconciles++;
      const stale = Number(parent.metadata.resourceVersion) < (lastWritten.get(keyOf(req)) ?? 0);
      if (stale) counts.staleReconciles++;
      const want = parent.data?.['want'];
      const child = { namespace: NS, name: `${req.name}-want-${want}` };
      if (!c.get(ConfigMapResource, child)) {
        try {
          await c.create(ConfigMapResource, { metadata: child, data: { parent: req.name } });
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          counts.duplicateCreates++;
        }
      }
      if (parent.data?.['seen'] === want) return;
      try {
        const written = await c.update(ConfigMapResource, { ...parent, data: { ...parent.data, seen: want! } });
        lastWritten.set(keyOf(req), Number(written.metadata.resourceVersion));
      } catch (err) {
        if (isConflict(err)) {
          if (stale) counts.avoidableConflicts++;
          else counts.writerConflicts++;
        }
        throw err;
      }
    });

  const names = Array.from({ length: PARENTS }, (_, i) => `parent-${i}`);
  for (const name of names) {
    await env.client.create(ConfigMapResource, { metadata: { namespace: NS, name, labels: { role: 'parent' } }, data: { want: '0' } });
    await env.client.create(ConfigMapResource, { metadata: { namespace: NS, name: `${name}-input` }, data: { 'input-of': name } });
  }
  const stop = new AbortController();
  const running = mgr.start(stop.signal);
  // The concurrent writer: touches every input, and now and then every parent's `want`, until the time is up.
  const until = Date.now() + WRITING_FOR_MS;
  for (let round = 1; Date.now() < until; round++) {
    const patch = (name: string, data: Record<string, string>) =>
      env.client.patch(ConfigMapResource, { namespace: NS, name }, { data }, 'merge');
    await Promise.all(names.map((name) => patch(`${name}-input`, { tick: String(round) })));
    if (round % WANT_EVERY === 0) await Promise.all(names.map((name) => patch(name, { want: String(round) })));
    await new Promise((r) => setTimeout(r, WRITER_EVERY_MS));
  }
  // Whatever the mode, the reconciler converges once the writer stops.
  await eventually(
    async () => {
      const list = await env.client.list(ConfigMapResource, { namespace: NS });
      const byName = new Map(list.items.map((o: ConfigMap) => [o.metadata.name!, o]));
      return names.every(
        (n) => byName.get(n)?.data?.['seen'] === byName.get(n)?.data?.['want'] && byName.has(`${n}-want-${byName.get(n)?.data?.['want']}`),
      );
    },
    { timeoutMs: 10_000 },
  );
  stop.abort();
  await running;
  return counts;
}

describe('read-your-writes under a lagging cache and a concurrent writer', () => {
  it('never reconciles on state older than its own writes when on, and the same run finds such reconciles when off', async () => {
    const on = await torture(true);
    const off = await torture(false);
    console.log(`read-your-writes on: ${JSON.stringify(on)}\nread-your-writes off: ${JSON.stringify(off)}`);
    assert.equal(on.staleReconciles, 0);
    assert.equal(on.duplicateCreates, 0);
    assert.equal(on.avoidableConflicts, 0);
    assert.ok(on.reconciles > PARENTS);
    assert.ok(off.staleReconciles > 0, 'with it off, reconciles act on state older than their own writes');
    assert.ok(off.duplicateCreates + off.avoidableConflicts > 0, 'and that costs duplicate creates or avoidable conflicts');
  });
});
