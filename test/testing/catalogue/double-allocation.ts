/**
 * An external allocation repeated because the write that records it was not seen (Sieve's intermediate
 * states, and the classic lost-response bug: the status write that stores the allocated id is applied,
 * but its answer is lost or the operator dies first, so the retry allocates again and the first id
 * leaks). Fixed twin: the allocation is idempotent, keyed by the Widget's uid, so a retry finds it.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { Widget, createWidget, markReady, recordsOfLiveWidgets, type CatalogueEntry, type W } from './widget.js';

export const doubleAllocation: CatalogueEntry = {
  name: 'double-allocation',
  bugClass: 'an external allocation repeated after its recording write was lost',
  seenIn: 'Sieve (intermediate states), Acto (resource leaks)',
  setup: (external, fixed) => (mgr, ctx) => {
    const allocations = external.records(ctx.namespace);
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w || w.status?.bucket) return;
        await ctx.dependency('allocate');
        let id: string;
        if (fixed) {
          id = [...allocations].find(([, owner]) => owner === w.metadata.uid)?.[0] ?? external.newId();
        } else id = external.newId();
        allocations.set(id, w.metadata.uid ?? '');
        await markReady(client, w, ctx, { extra: { bucket: id } });
      });
  },
  finds: { by: 'faults', faults: ['lostResponse', 'crash'], scenario: [createWidget(0, 'a', { image: 'a:1' })] },
  invariants: (external) => [
    {
      ...recordsOfLiveWidgets(external, (w: W) => w.status?.bucket ?? '(none)'),
      name: 'one allocation per Widget',
    },
  ],
};
