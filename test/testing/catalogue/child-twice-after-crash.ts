/**
 * A child created twice after a crash between its create and the status write that records it (Sieve's
 * intermediate-state bugs: an operator that names a child with `generateName` and remembers it only in
 * its status, so a restart in between forgets the first child and makes another). Fixed twin: the
 * child's name follows from its owner, so a second create meets AlreadyExists.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { setControllerReference } from 'kube-converge/manager';
import { isAlreadyExists } from 'kube-converge/client';
import { ConfigMapResource, type ObjectOf } from 'kube-converge/meta';
import type { Invariant } from 'kube-converge/testing';
import { Widget, createWidget, markReady, type CatalogueEntry } from './widget.js';

export const childTwiceAfterCrash: CatalogueEntry = {
  name: 'child-twice-after-crash',
  bugClass: 'a child created twice after a crash between the create and the status write',
  seenIn: 'Sieve (intermediate states)',
  setup: (_external, fixed) => (mgr, ctx) => {
    controllerManagedBy(mgr)
      .for(Widget)
      .owns(ConfigMapResource)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w || w.status?.observedGeneration === w.metadata.generation) return;
        const namespace = req.namespace ?? '';
        const child: ObjectOf<typeof ConfigMapResource> = {
          metadata: fixed ? { namespace, name: `${req.name}-data` } : { namespace, generateName: `${req.name}-` },
          data: { image: w.spec.image },
        };
        setControllerReference(w, child);
        let name = w.status?.child;
        if (!name) {
          const made = await client.create(ConfigMapResource, child).catch((err: unknown) => {
            if (fixed && isAlreadyExists(err)) return child; // made by an attempt that did not live to record it
            throw err;
          });
          name = made.metadata.name ?? '';
        }
        await markReady(client, w, ctx, { extra: { child: name } });
      });
  },
  finds: { by: 'faults', faults: ['crash'], scenario: [createWidget(0, 'a', { image: 'a:1' })] },
  invariants: () => [oneChildEach],
};

const oneChildEach: Invariant = {
  name: 'one child ConfigMap per Widget',
  async check(ctx) {
    const owners = (await ctx.client.list(ConfigMapResource, { namespace: ctx.namespace })).items
      .map((c) => c.metadata.ownerReferences?.[0]?.name)
      .filter((o) => o !== undefined);
    const twice = owners.find((o, i) => owners.indexOf(o) !== i);
    return twice === undefined ? undefined : `Widget ${twice} has ${owners.filter((o) => o === twice).length} children`;
  },
};
