/**
 * A conflict swallowed on the status write (a lost update: the operator treats 409 as "someone else
 * did it" and returns, but the other writer changed something else, so the status is never written and
 * no event wakes the operator again). Fixed twin: the conflict fails the reconcile, which is retried
 * on a fresh read.
 */
import { controllerManagedBy, generationChangedPredicate } from 'kube-converge/controller';
import { isConflict } from 'kube-converge/client';
import { Widget, createWidget, markReady, type CatalogueEntry } from './widget.js';

export const swallowedConflict: CatalogueEntry = {
  name: 'swallowed-conflict',
  bugClass: 'a conflict on the status write swallowed instead of retried',
  seenIn: 'Sieve (stale reads: writes guarded by an old resourceVersion)',
  setup: (_external, fixed) => (mgr, ctx) => {
    controllerManagedBy(mgr)
      .for(Widget, { predicates: [generationChangedPredicate] })
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w || w.status?.observedGeneration === w.metadata.generation) return;
        try {
          await markReady(client, w, ctx, { guarded: true });
        } catch (err) {
          if (!fixed && isConflict(err)) return;
          throw err;
        }
      });
  },
  finds: { by: 'faults', faults: ['concurrentWrite'], scenario: [createWidget(0, 'a', { image: 'a:1' })] },
  invariants: () => [],
};
