/**
 * ClusterRole aggregation, as kube-controller-manager's aggregation controller does it: a
 * ClusterRole with an `aggregationRule` has as its `rules` the rules of every other ClusterRole its
 * label selectors match (roles in name order, each distinct rule once). Run on the storage's own
 * events, after the write that caused them has answered. Invariant: after any ClusterRole write,
 * every aggregated ClusterRole's rules are recomputed, and written only when they changed (so its
 * own update settles instead of looping).
 */
import { isDeepStrictEqual } from 'node:util';
import { selectorFromLabelSelector, type KubeObject, type LabelSelector, type Logger } from '../../meta/index.js';
import type { ServerContext } from '../registry/index.js';
import type { StoredEvent } from '../storage/index.js';
import type { PolicyRule } from '../authorization/index.js';
import { CLUSTER_ROLES } from '../authorization/index.js';

interface ClusterRole extends KubeObject {
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export class ClusterRoleAggregation {
  readonly #ctx: ServerContext;
  readonly #log: Logger;
  #pending = false;

  constructor(ctx: ServerContext, log: Logger) {
    this.#ctx = ctx;
    this.#log = log;
    ctx.store.subscribe((e) => this.#onEvent(e));
  }

  #onEvent(e: StoredEvent): void {
    if (e.resource !== CLUSTER_ROLES || this.#pending) return;
    this.#pending = true;
    this.#ctx.defer(() => {
      this.#pending = false;
      this.#aggregateAll();
    });
  }

  #aggregateAll(): void {
    const store = this.#ctx.store;
    const roles = [...(store.current(CLUSTER_ROLES).values() as Iterable<ClusterRole>)].sort((a, b) =>
      a.metadata.name! < b.metadata.name! ? -1 : 1,
    );
    for (const role of roles) {
      const selectors = role.aggregationRule?.clusterRoleSelectors;
      if (!selectors) continue;
      const rules: PolicyRule[] = [];
      for (const s of selectors) {
        let selector;
        try {
          selector = selectorFromLabelSelector(s);
        } catch (err) {
          this.#log.warn({ clusterRole: role.metadata.name, err: String(err) }, 'aggregation rule has an invalid label selector');
          continue;
        }
        for (const other of roles) {
          if (other === role || !selector.matches(other.metadata.labels)) continue;
          for (const r of other.rules ?? []) if (!rules.some((x) => isDeepStrictEqual(x, r))) rules.push(r);
        }
      }
      if (isDeepStrictEqual(rules, role.rules ?? [])) continue;
      store.update(CLUSTER_ROLES, role.metadata.name!, { ...role, metadata: { ...role.metadata }, rules });
    }
  }
}
