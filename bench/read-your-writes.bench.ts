// What read-your-writes costs when the cache does not lag: one manager runs two identical controllers
// over two groups of ConfigMaps, one with read-your-writes on (the default) and one with it off. Each
// round bumps `want` on every object of one group and times until the controller has copied it into
// `seen` on all of them (one cached read and one update per object, each update noted and checked by
// the gate before the object's next reconcile). Rounds alternate between the groups; each figure is the
// median throughput in reconciles that wrote per second. Goal: on/off ≥ 0.95. Prints the ratio last.
// Run: node scripts/run-bench.mjs read-your-writes
import { startApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { controllerManagedBy, labelSelectorPredicate } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, noopLogger } from 'kube-converge/meta';
import { restConfigFor } from 'kube-converge/testing';

const PER_GROUP = 200;
const ROUNDS = 7;
const WORKERS = 4;
const NS = 'default';

const api = await startApiServer({ port: 0 });
const admin = createClient({ config: restConfigFor(api) });
const groups = ['on', 'off'] as const;
type Group = (typeof groups)[number];
for (const group of groups) {
  await Promise.all(
    Array.from({ length: PER_GROUP }, (_, i) =>
      admin.create(ConfigMapResource, {
        metadata: { namespace: NS, name: `${group}-${i}`, labels: { group } },
        data: { want: '0', seen: '0' },
      }),
    ),
  );
}

const mgr = await createManager({ config: restConfigFor(api), logger: noopLogger });
/** Per group: the round being timed, how many objects reached it, and who waits for all of them. */
const progress = new Map<Group, { round: string; done: number; finished: () => void }>();
for (const group of groups) {
  controllerManagedBy(mgr)
    .named(`copy-${group}`)
    .for(ConfigMapResource, { predicates: [labelSelectorPredicate({ matchLabels: { group } })] })
    .withOptions({ readYourWrites: group === 'on', maxConcurrentReconciles: WORKERS })
    .complete(async (req, { client }) => {
      const cm = client.get(ConfigMapResource, req);
      const want = cm?.data?.['want'];
      if (!cm || want === cm.data?.['seen']) return;
      await client.update(ConfigMapResource, { ...cm, data: { ...cm.data, seen: want! } });
      const p = progress.get(group);
      if (p && want === p.round && ++p.done === PER_GROUP) p.finished();
    });
}
const run = mgr.start();
await mgr.elected();

/** Bumps every object of `group` to `round` and resolves with reconciles that wrote per second. */
async function timeRound(group: Group, round: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const all = new Promise<void>((finished) => progress.set(group, { round: String(round), done: 0, finished }));
  await Promise.all(
    Array.from({ length: PER_GROUP }, (_, i) =>
      admin.patch(ConfigMapResource, { namespace: NS, name: `${group}-${i}` }, { data: { want: String(round) } }, 'merge'),
    ),
  );
  await all;
  return PER_GROUP / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const rates: Record<Group, number[]> = { on: [], off: [] };
await timeRound('on', 1); // warm-up, not counted
await timeRound('off', 1);
for (let r = 2; r < ROUNDS + 2; r++) {
  // Alternate which group goes first, so neither always runs on a warmer process.
  for (const group of r % 2 === 0 ? groups : [...groups].reverse()) rates[group].push(await timeRound(group, r));
}
await mgr.shutdown();
await run;
admin.close();
await api.stop();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`objects per group: ${PER_GROUP}, workers: ${WORKERS}, rounds: ${ROUNDS}`);
console.log(`read-your-writes on:  ${median(rates.on).toFixed(0)} reconciles/s (rounds: ${rates.on.map((x) => x.toFixed(0)).join(', ')})`);
console.log(
  `read-your-writes off: ${median(rates.off).toFixed(0)} reconciles/s (rounds: ${rates.off.map((x) => x.toFixed(0)).join(', ')})`,
);
console.log(`ratio on/off throughput: ${(median(rates.on) / median(rates.off)).toFixed(3)}`);
