/**
 * An operator that renders a Widget's spec into a ConfigMap (and a second one while `spec.exposed`),
 * with the input-handling bugs of Acto's lists, one at a time: a value the schema accepts crashes the
 * reconciler (an empty `ports` list); a boundary value is taken for "unset" (`replicas: 0` becomes 1
 * through `||`); an update of the Widget drops fields the user set (the operator defaults `mode` by
 * writing back the spec as the fields it knows, without `tags`); a change rolled back is never rolled
 * back (`exposed` switched off leaves its ConfigMap). Each fixed twin differs by that one fix. The
 * explorer finds them from the schema alone: `exploreInputs`, no scenario.
 */
import { controllerManagedBy } from 'kube-converge/controller';
import { setControllerReference, type Manager, type ManagerClient } from 'kube-converge/manager';
import { isNotFound } from 'kube-converge/client';
import { ConfigMapResource, type ObjectOf } from 'kube-converge/meta';
import type { ExploreContext, Invariant } from 'kube-converge/testing';
import { Widget, markReady, nn, type CatalogueEntry, type W } from './widget.js';

type RenderBug = 'crashOnEmptyList' | 'zeroTakenForUnset' | 'dropsUserFields' | 'rollbackNotUndone';

/** The data the rendered ConfigMap must hold for `spec`: what the consistency invariant compares with. */
export function rendering(spec: W['spec']): { image: string; replicas: string; mode: string; primaryPort: string; tags: string } {
  return {
    image: spec.image,
    replicas: String(spec.replicas ?? 1),
    mode: spec.mode ?? 'safe',
    primaryPort: String(spec.ports?.[0] ?? 80),
    tags: (spec.tags ?? []).join(','),
  };
}

function renderSetup(bug: RenderBug, fixed: boolean) {
  return (mgr: Manager, ctx: ExploreContext): void => {
    controllerManagedBy(mgr)
      .for(Widget)
      .owns(ConfigMapResource)
      .complete(async (req, { client }) => {
        const w = client.get(Widget, req);
        if (!w) return;
        const spec = w.spec;
        const namespace = req.namespace ?? '';
        if (spec.mode === undefined) {
          // Defaulting in the operator: written back to the Widget, which wakes it again.
          if (bug === 'dropsUserFields' && !fixed) {
            const known = {
              image: spec.image,
              replicas: spec.replicas,
              ports: spec.ports,
              exposed: spec.exposed,
              configRef: spec.configRef,
            };
            await client.update(Widget, { ...w, spec: { ...stripUndefined(known), image: spec.image, mode: 'safe' } });
          } else {
            await client.patch(Widget, req, { spec: { mode: 'safe' } }, 'merge');
          }
          return;
        }
        const data = rendering(spec);
        if (bug === 'crashOnEmptyList' && !fixed && spec.ports) data.primaryPort = spec.ports[0]!.toFixed(0);
        if (bug === 'zeroTakenForUnset' && !fixed) data.replicas = String(spec.replicas || 1);
        await ensure(client, w, `${req.name}-render`, data);
        if (spec.exposed) await ensure(client, w, `${req.name}-expose`, { port: data.primaryPort });
        else if (bug !== 'rollbackNotUndone' || fixed) {
          await client.delete(ConfigMapResource, { namespace, name: `${req.name}-expose` }).catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
        }
        if (w.status?.observedGeneration !== w.metadata.generation) await markReady(client, w, ctx);
      });
  };
}

/** Creates or updates the ConfigMap `name` owned by `w` to hold `data`, writing only when it differs. */
async function ensure(client: ManagerClient, w: W, name: string, data: Record<string, string>): Promise<void> {
  const namespace = w.metadata.namespace ?? '';
  const current = client.get(ConfigMapResource, { namespace, name });
  if (current && JSON.stringify(current.data ?? {}) === JSON.stringify(data)) return;
  const cm: ObjectOf<typeof ConfigMapResource> = { metadata: { namespace, name }, data };
  setControllerReference(w, cm);
  if (current) await client.update(ConfigMapResource, { ...cm, metadata: { ...current.metadata, ...cm.metadata } });
  else await client.create(ConfigMapResource, cm);
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<{ [K in keyof T]: Exclude<T[K], undefined> }>;
}

/** The consistency oracle: the rendered ConfigMap holds the spec's rendering, and the exposed one exists exactly while `spec.exposed`. */
const reflectsSpec: Invariant = {
  name: 'the ConfigMaps reflect the spec',
  async check(ctx) {
    for (const w of (await ctx.client.list(Widget, { namespace: ctx.namespace })).items) {
      const cms = (await ctx.client.list(ConfigMapResource, { namespace: ctx.namespace })).items;
      const { name = '' } = nn(w);
      const rendered = cms.find((c) => c.metadata.name === `${name}-render`);
      const want = rendering({ ...w.spec, mode: w.spec.mode ?? 'safe' });
      if (JSON.stringify(rendered?.data) !== JSON.stringify(want))
        return `${name}-render holds ${JSON.stringify(rendered?.data)}, not ${JSON.stringify(want)}`;
      const exposed = cms.some((c) => c.metadata.name === `${name}-expose`);
      if (exposed !== (w.spec.exposed === true))
        return `${name}-expose ${exposed ? 'exists' : 'is missing'} while spec.exposed is ${String(w.spec.exposed)}`;
    }
    return undefined;
  },
};

function entry(bug: RenderBug, name: string, bugClass: string, seenIn: string): CatalogueEntry {
  return {
    name,
    bugClass,
    seenIn,
    setup: (_external, fixed) => renderSetup(bug, fixed),
    finds: { by: 'inputs' },
    invariants: () => [reflectsSpec],
  };
}

export const crashOnEmptyList = entry(
  'crashOnEmptyList',
  'crash-on-valid-spec',
  'a spec value the schema accepts crashes the reconciler (an empty list)',
  'Acto (misoperations: operators panicking on valid input)',
);
export const zeroTakenForUnset = entry(
  'zeroTakenForUnset',
  'zero-taken-for-unset',
  'a boundary value taken for "unset" (replicas: 0 becomes the default)',
  'Acto (boundary values mishandled)',
);
export const dropsUserFields = entry(
  'dropsUserFields',
  'drops-user-fields',
  'an update that drops fields the user set',
  'Acto (operators overwriting user fields), Sieve (lost updates)',
);
export const rollbackNotUndone = entry(
  'rollbackNotUndone',
  'rollback-not-undone',
  'a rolled-back spec change that is never rolled back',
  'Acto (operators failing to undo a reverted change)',
);
