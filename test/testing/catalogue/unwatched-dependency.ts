/**
 * A dependency read but not watched (Acto and Sieve both report operators that read a ConfigMap or
 * Secret their object names, give up while it is missing, and never look again: nothing they watch
 * changes when it appears). Fixed twin: ConfigMaps are watched, and each wakes the Widgets naming it.
 */
import { controllerManagedBy, enqueueRequestsFromMapFunc } from 'kube-converge/controller';
import { ConfigMapResource } from 'kube-converge/meta';
import { Widget, createWidget, markReady, type CatalogueEntry } from './widget.js';

export const unwatchedDependency: CatalogueEntry = {
  name: 'unwatched-dependency',
  bugClass: 'a referenced object read but not watched, so its arrival is never noticed',
  seenIn: 'Acto (operators not reacting to dependent resources)',
  setup: (_external, fixed) => (mgr, ctx) => {
    const builder = controllerManagedBy(mgr).for(Widget);
    if (fixed) {
      builder.watches(
        ConfigMapResource,
        enqueueRequestsFromMapFunc((cm) =>
          mgr.client
            .list(Widget, { namespace: cm.metadata.namespace ?? '' })
            .filter((w) => w.spec.configRef === cm.metadata.name)
            .map((w) => ({ namespace: w.metadata.namespace ?? '', name: w.metadata.name ?? '' })),
        ),
      );
    }
    builder.complete(async (req, { client }) => {
      const w = client.get(Widget, req);
      if (!w) return;
      const cm = w.spec.configRef ? client.get(ConfigMapResource, { namespace: req.namespace ?? '', name: w.spec.configRef }) : undefined;
      if (w.spec.configRef && !cm) {
        await markReady(client, w, ctx, {
          ready: { status: 'False', reason: 'ConfigMissing', message: `waiting for ${w.spec.configRef}` },
        });
        return;
      }
      if (w.status?.conditions?.[0]?.status !== 'True' || w.status.observedGeneration !== w.metadata.generation)
        await markReady(client, w, ctx);
    });
  },
  finds: {
    by: 'faults',
    faults: ['watchCut', 'cacheLag'],
    scenario: [
      createWidget(0, 'a', { image: 'a:1', configRef: 'settings' }),
      {
        atMs: 300,
        run: async (ctx) => void (await ctx.client.create(ConfigMapResource, { metadata: { namespace: ctx.namespace, name: 'settings' } })),
      },
    ],
  },
  invariants: () => [],
};
