/**
 * A status that never reports an error (Acto's class of operators that declare success while a step
 * failed: the failure is logged and swallowed, the status says Ready, and nothing retries). Each Widget
 * must be registered in the external system. Fixed twin: the failure goes into the Ready condition
 * (False, with the reason) and the reconcile fails, so it is retried until it succeeds.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import type { Invariant } from 'kube-converge/testing';
import { Widget, createWidget, keyOfWidget, markReady, reconciled, type CatalogueEntry } from './widget.js';
import type { External } from './widget.js';

export const statusHidesError: CatalogueEntry = {
  name: 'status-hides-error',
  bugClass: 'a status that never reports an error',
  seenIn: 'Acto (status not reflecting failures)',
  setup: (external, fixed) => (mgr, ctx) => {
    const records = external.records(ctx.namespace);
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w || reconciled(w)) return;
        try {
          await ctx.dependency('register');
          records.set(keyOfWidget(w), 'registered');
        } catch (err) {
          if (fixed) {
            const message = (err as Error).message;
            await markReady(client, w, ctx, { ready: { status: 'False', reason: 'RegisterFailed', message } });
            throw err;
          }
          // the bug: the failure is only logged, and the status below says all is well
        }
        await markReady(client, w, ctx);
      });
  },
  finds: {
    by: 'faults',
    faults: ['dependencyTimeout'],
    scenario: [createWidget(0, 'a', { image: 'a:1' }), createWidget(0, 'b', { image: 'b:1' })],
  },
  invariants: (external) => [readyMeansRegistered(external)],
};

function readyMeansRegistered(external: External): Invariant {
  return {
    name: 'a Ready Widget is registered',
    async check(ctx) {
      const ready = (await ctx.client.list(Widget, { namespace: ctx.namespace })).items.filter((w) =>
        w.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      const missing = ready.filter((w) => !external.records(ctx.namespace).has(keyOfWidget(w))).map((w) => w.metadata.name);
      return missing.length === 0 ? undefined : `Ready but not registered: ${missing.join(', ')}`;
    },
  };
}
