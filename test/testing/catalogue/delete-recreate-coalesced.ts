/**
 * A delete-and-recreate handled as an update because the events were coalesced (Sieve's unobserved
 * states: an operator that cleans up only when it sees its object gone, while the workqueue or a
 * relist hands it the new object under the same name, so the old one's resources leak). Each Widget
 * has a bucket in the external system keyed by its uid; the bucket API is slow, so the Widget is
 * deleted and made again while its first reconcile waits, and the workqueue folds both events into
 * one more reconcile, which finds a Widget. Fixed twin: level-based cleanup, by comparing the buckets
 * held under the name with the live object's uid.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { Widget, createWidget, markReady, recordsOfLiveWidgets, type CatalogueEntry, type W } from './widget.js';

const bucketOf = (w: W): string => `${w.metadata.name}/${w.metadata.uid}`;

export const deleteRecreateCoalesced: CatalogueEntry = {
  name: 'delete-recreate-coalesced',
  bugClass: 'a delete-and-recreate handled as an update because the events were coalesced',
  seenIn: 'Sieve (unobserved states)',
  setup: (external, fixed) => (mgr, ctx) => {
    const buckets = external.records(ctx.namespace);
    const heldFor = (name: string) => [...buckets.keys()].filter((k) => k.startsWith(`${name}/`));
    // The bucket API answers in 150 ms: while a call is out, the Widget's events only mark its key dirty.
    const call = async (what: string) => {
      await ctx.dependency(what);
      await ctx.clock.sleep(150);
    };
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w) {
          for (const k of heldFor(req.name)) {
            await call('delete bucket');
            buckets.delete(k);
          }
          return;
        }
        if (fixed) {
          for (const k of heldFor(req.name).filter((k) => k !== bucketOf(w))) {
            await call('delete bucket');
            buckets.delete(k);
          }
        }
        if (!buckets.has(bucketOf(w))) {
          await call('create bucket');
          buckets.set(bucketOf(w), 'bucket');
        }
        // Guarded by the resourceVersion read: a status meant for the old Widget must not land on the new one.
        if (w.status?.observedGeneration !== w.metadata.generation) await markReady(client, w, ctx, { guarded: fixed });
      });
  },
  finds: {
    by: 'faults',
    faults: ['cacheLag', 'watchCut', 'crash'],
    scenario: [
      createWidget(0, 'a', { image: 'a:1' }),
      {
        atMs: 100,
        async run(ctx) {
          // `kubectl replace --force`: the Widget is deleted and made again under its name at once.
          await ctx.client.delete(Widget, { namespace: ctx.namespace, name: 'a' });
          await ctx.client.create(Widget, { metadata: { namespace: ctx.namespace, name: 'a' }, spec: { image: 'a:2' } });
        },
      },
    ],
  },
  invariants: (external) => [recordsOfLiveWidgets(external, bucketOf)],
};
