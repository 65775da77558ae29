/**
 * A finalizer removed before the external cleanup is recorded (Sieve and Acto both list it: e.g. an
 * operator that drops its finalizer and then deletes the cloud resource, which leaks when that call
 * fails or the operator dies in between). The Widget's record in the external system must go with it.
 * Fixed twin: clean up first, remove the finalizer only once the cleanup succeeded.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { containsFinalizer } from 'kube-converge/manager';
import { ignoreNotFound } from 'kube-converge/client';
import {
  Widget,
  recordsOfLiveWidgets,
  createWidget,
  deleteWidget,
  keyOfWidget,
  markReady,
  nn,
  type CatalogueEntry,
  type W,
} from './widget.js';

const FINALIZER = 'catalogue.converge.dev/cleanup';

export const finalizerBeforeCleanup: CatalogueEntry = {
  name: 'finalizer-before-cleanup',
  bugClass: 'a finalizer removed before the external cleanup is recorded',
  seenIn: 'Sieve (intermediate states), Acto (resource leaks on deletion)',
  setup: (external, fixed) => (mgr, ctx) => {
    const records = external.records(ctx.namespace);
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w) return;
        const setFinalizers = (finalizers: string[]) =>
          client.patch(Widget, nn(w), { metadata: { finalizers, resourceVersion: w.metadata.resourceVersion } }, 'merge');
        const cleanup = async () => {
          await ctx.dependency('delete record');
          records.delete(keyOfWidget(w));
        };
        if (w.metadata.deletionTimestamp) {
          if (!containsFinalizer(w, FINALIZER)) return;
          const others = (w.metadata.finalizers ?? []).filter((f) => f !== FINALIZER);
          if (fixed) {
            await cleanup();
            await setFinalizers(others).catch(ignoreNotFound);
          } else {
            await setFinalizers(others);
            await cleanup();
          }
          return;
        }
        const current: W = containsFinalizer(w, FINALIZER) ? w : await setFinalizers([...(w.metadata.finalizers ?? []), FINALIZER]);
        await ctx.dependency('create record');
        records.set(keyOfWidget(w), w.metadata.uid ?? '');
        if (current.status?.observedGeneration !== current.metadata.generation) await markReady(client, current, ctx);
      });
  },
  finds: {
    by: 'faults',
    faults: ['dependencyTimeout', 'crash'],
    scenario: [createWidget(0, 'a', { image: 'a:1' }), deleteWidget(300, 'a')],
  },
  invariants: (external) => [recordsOfLiveWidgets(external, keyOfWidget)],
};
