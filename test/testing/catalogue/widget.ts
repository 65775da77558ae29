/**
 * What the catalogue's operators share: the Widget kind (defined from TypeBox schemas, so the
 * explorer can draw specs from its CRD), the external system they record things in (it survives a
 * crashed manager, as a cloud API does), and the small helpers each miniature would otherwise repeat.
 * Every operator of the catalogue manages Widgets; each is a faithful miniature of one bug class and
 * comes with its fixed twin, which differs from it by the fix only.
 */
import { Type } from 'typebox';
import { Conditions, defineCustomResource } from 'kube-converge/schema';
import { keyOf, type ObjectOf } from 'kube-converge/meta';
import type { Manager, ManagerClient } from 'kube-converge/manager';
import type { ExploreContext, FaultKind, Invariant, ScenarioStep } from 'kube-converge/testing';

export const Widget = defineCustomResource({
  group: 'catalogue.converge.dev',
  kind: 'Widget',
  scope: 'Namespaced',
  versions: {
    v1: {
      served: true,
      storage: true,
      spec: Type.Object({
        image: Type.String({ minLength: 1, maxLength: 20 }),
        replicas: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
        mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('safe')])),
        exposed: Type.Optional(Type.Boolean()),
        ports: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), { maxItems: 3 })),
        tags: Type.Optional(Type.Array(Type.String({ maxLength: 10 }), { maxItems: 3 })),
        configRef: Type.Optional(Type.String({ maxLength: 20 })),
      }),
      status: Type.Object({
        observedGeneration: Type.Optional(Type.Integer()),
        conditions: Type.Optional(Conditions()),
        child: Type.Optional(Type.String()),
        bucket: Type.Optional(Type.String()),
        scaledTo: Type.Optional(Type.Integer()),
      }),
      subresources: { status: true },
    },
  },
});

export type W = ObjectOf<typeof Widget>;

/** A catalogue entry: a bug class, where it was seen, and the operator with the bug and with its fix. */
export interface CatalogueEntry {
  /** Short name, used in test names and the benchmark's table. */
  readonly name: string;
  /** The bug class, in one line. */
  readonly bugClass: string;
  /** Where the class was reported (Sieve's or Acto's bug lists). */
  readonly seenIn: string;
  /** The operator's setup: with the bug, or fixed; it records into `external`. */
  setup(external: External, fixed: boolean): (mgr: Manager, ctx: ExploreContext) => void;
  /**
   * How the explorer finds it: `faults` (a hand-written scenario under fault schedules of these kinds;
   * none: the run without faults already fails) or `inputs` (specs drawn from the Widget schema, no scenario).
   */
  readonly finds:
    | { readonly by: 'faults'; readonly faults: readonly FaultKind[]; readonly scenario: readonly ScenarioStep[] }
    | { readonly by: 'inputs' };
  /** What must hold once every Widget is reconciled (Ready at its generation). */
  invariants(external: External): Invariant[];
}

/** The external system: named records per run namespace, and what went wrong there that cannot be undone. */
export class External {
  readonly #records = new Map<string, Map<string, string>>();
  readonly #losses = new Map<string, string[]>();
  #next = 0;
  records(namespace: string): Map<string, string> {
    let m = this.#records.get(namespace);
    if (!m) this.#records.set(namespace, (m = new Map()));
    return m;
  }
  /** An irreversible loss (data deleted that was still wanted), kept for the invariants. */
  lose(namespace: string, what: string): void {
    const l = this.#losses.get(namespace) ?? [];
    l.push(what);
    this.#losses.set(namespace, l);
  }
  losses(namespace: string): readonly string[] {
    return this.#losses.get(namespace) ?? [];
  }
  /** A fresh identifier, as a cloud API hands out for each allocation. */
  newId(): string {
    return `id-${this.#next++}`;
  }
}

/** Reconciled at its current generation, Ready, and not on its way out. */
export const reconciled = (w: W): boolean =>
  !w.metadata.deletionTimestamp &&
  w.status?.observedGeneration === w.metadata.generation &&
  w.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** Patches the status to say `w` was reconciled at its generation (extra fields beside), carrying `w`'s resourceVersion when `guarded`. */
export function markReady(
  client: ManagerClient,
  w: W,
  ctx: ExploreContext,
  options: {
    extra?: Record<string, unknown>;
    guarded?: boolean;
    ready?: { status: 'True' | 'False'; reason: string; message: string };
  } = {},
): Promise<W> {
  const ready = options.ready ?? { status: 'True', reason: 'Reconciled', message: '' };
  const status = {
    observedGeneration: w.metadata.generation,
    conditions: [{ type: 'Ready', ...ready, lastTransitionTime: new Date(ctx.clock.now()).toISOString() }],
    ...options.extra,
  };
  const metadata = options.guarded ? { resourceVersion: w.metadata.resourceVersion } : {};
  return client.status().patch(Widget, nn(w), { metadata, status }, 'merge');
}

export const nn = (w: W): { namespace: string; name: string } => ({ namespace: w.metadata.namespace ?? '', name: w.metadata.name ?? '' });

export const keyOfWidget = (w: W): string => keyOf(nn(w));

/** A scenario step creating a Widget. */
export function createWidget(atMs: number, name: string, spec: W['spec']): ScenarioStep {
  return { atMs, run: async (ctx) => void (await ctx.client.create(Widget, { metadata: { namespace: ctx.namespace, name }, spec })) };
}

/** A scenario step deleting a Widget. */
export function deleteWidget(atMs: number, name: string): ScenarioStep {
  return { atMs, run: async (ctx) => void (await ctx.client.delete(Widget, { namespace: ctx.namespace, name })) };
}

/** A scenario step changing a Widget's spec by a merge patch. */
export function patchWidget(atMs: number, name: string, spec: Partial<W['spec']>): ScenarioStep {
  return { atMs, run: async (ctx) => void (await ctx.client.patch(Widget, { namespace: ctx.namespace, name }, { spec }, 'merge')) };
}

/** The invariant that nothing irreversible was lost. */
export function nothingLost(external: External): Invariant {
  return {
    name: 'nothing still wanted was deleted',
    check: (ctx) => (external.losses(ctx.namespace).length === 0 ? undefined : external.losses(ctx.namespace).join('; ')),
  };
}

/** The invariant that the external system holds one record for each live Widget (keyed by `key`), and nothing else. */
export function recordsOfLiveWidgets(external: External, key: (w: W) => string): Invariant {
  return {
    name: 'the external system holds exactly the live Widgets',
    async check(ctx) {
      const live = (await ctx.client.list(Widget, { namespace: ctx.namespace })).items.map(key);
      const held = [...external.records(ctx.namespace).keys()];
      const extra = held.filter((k) => !live.includes(k));
      const missing = live.filter((k) => !held.includes(k));
      return extra.length + missing.length === 0 ? undefined : `leaked: [${extra.join(', ')}], missing: [${missing.join(', ')}]`;
    },
  };
}
