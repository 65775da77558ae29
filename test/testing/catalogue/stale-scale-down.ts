/**
 * A scale-down decided from a stale read after a restart (Sieve's time-travel bugs, e.g. a Cassandra
 * operator that decommissioned a node, deleting its data, because its restarted cache still showed
 * the old size). Each replica of a Widget has a volume in the external system; a volume beyond
 * `spec.replicas` is deleted, and a deleted volume's data is gone. Fixed twin: before deleting, it
 * writes the size it scales to with the resourceVersion it read, so a decision made on a stale object
 * meets a 409 Conflict instead of deleting anything.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { Widget, createWidget, markReady, nn, nothingLost, patchWidget, type CatalogueEntry } from './widget.js';

export const staleScaleDown: CatalogueEntry = {
  name: 'stale-scale-down',
  bugClass: 'a scale-down decided from a stale read after a restart',
  seenIn: 'Sieve (time travel: cassandra-operator, zookeeper-operator)',
  setup: (external, fixed) => (mgr, ctx) => {
    const volumes = external.records(ctx.namespace);
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w) return;
        const want = w.spec.replicas ?? 1;
        const mine = [...volumes.keys()].filter((k) => k.startsWith(`${req.name}/`));
        const extra = mine.filter((k) => Number(k.split('/')[1]) >= want);
        if (extra.length > 0) {
          if (fixed) await markReady(client, w, ctx, { guarded: true, extra: { scaledTo: want } });
          for (const k of extra) {
            await ctx.dependency('delete volume');
            // The volume's data goes with it: a loss if the Widget, as the API server holds it now, still wants it.
            const live = await ctx.client.get(Widget, nn(w)).catch(() => undefined);
            if (live && Number(k.split('/')[1]) < (live.spec.replicas ?? 1))
              external.lose(ctx.namespace, `volume ${k} deleted while wanted`);
            volumes.delete(k);
          }
        }
        for (let i = 0; i < want; i++) {
          if (volumes.has(`${req.name}/${i}`)) continue;
          await ctx.dependency('create volume');
          volumes.set(`${req.name}/${i}`, 'data');
        }
        if (w.status?.observedGeneration !== w.metadata.generation) await markReady(client, w, ctx, { extra: { scaledTo: want } });
      });
  },
  finds: {
    by: 'faults',
    faults: ['staleRestart'],
    scenario: [createWidget(0, 'a', { image: 'a:1', replicas: 1 }), patchWidget(300, 'a', { replicas: 3 })],
  },
  invariants: (external) => [nothingLost(external)],
};
