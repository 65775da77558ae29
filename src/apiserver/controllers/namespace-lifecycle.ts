/**
 * Namespace deletion, the part the namespace controller does in a real cluster: the first
 * DELETE marks the namespace Terminating (deletionTimestamp, `status.phase`), its contents are then
 * deleted like any object (finalizers are honoured), and once nothing is left in it the `kubernetes`
 * spec finalizer is cleared and the namespace goes away. `default`, `kube-system` and `kube-public`
 * cannot be deleted. After each pass over a terminating namespace's content (the first, and each
 * change to what remains) its `status.conditions` say what the namespace controller's say: the five
 * deletion conditions, False with their success reasons, except `NamespaceContentRemaining` and
 * `NamespaceFinalizersRemaining`, True while objects (and their finalizers) remain, counted per
 * resource and per finalizer in kube's words. Discovery, group-version parsing and content deletion
 * cannot fail here, so those three are always False.
 * Invariant: a Terminating namespace is finalized only when no namespaced object remains in it.
 */
import { formatTimestamp, jsonEqual, type KubeObject, type Logger } from '../../meta/index.js';
import type { Scope, ServerContext } from '../registry/index.js';
import { performDelete } from '../handlers/index.js';
import { negotiateOutput } from '../wire/index.js';
import { renderObject } from '../handlers/index.js';
import { headerOf, type ApiResponse } from '../wire/index.js';
import { jsonResponse } from '../wire/index.js';
import { conflict, forbidden, modifiedConflict, notFound } from '../ground/index.js';
import { namespaceDeletionConditions, type ContentTotals, type NamespaceCondition } from './namespace-conditions.js';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);
const NS_ID = '/namespaces';
const NAMESPACES = { group: '', plural: 'namespaces' };

export class NamespaceLifecycle {
  readonly #ctx: ServerContext;
  readonly #log: Logger;
  readonly #terminating = new Set<string>();
  /** Namespaces with a pass already deferred: a burst of changes makes one pass, not one per change. */
  readonly #pending = new Set<string>();

  constructor(ctx: ServerContext, log: Logger) {
    this.#ctx = ctx;
    this.#log = log;
    // Any change to what is left (a finalizer removed, an object gone) is a new pass, as the
    // namespace controller resyncs a terminating namespace until it is empty.
    ctx.store.subscribe((e) => {
      const ns = e.object.metadata.namespace;
      if (!ns || !this.#terminating.has(ns) || this.#pending.has(ns)) return;
      this.#pending.add(ns);
      ctx.defer(() => {
        this.#pending.delete(ns);
        this.#tryFinalize(ns);
      });
    });
  }

  deleteNamespace(scope: Scope, dryRun: boolean): ApiResponse {
    const name = scope.name;
    const store = this.#ctx.store;
    const old = store.get(NS_ID, name);
    if (!old) throw notFound(NAMESPACES, name);
    if (IMMORTAL.has(name)) throw forbidden(NAMESPACES, name, 'this namespace may not be deleted');
    const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
    if (old.metadata.deletionTimestamp) {
      if (specFinalizers(old).length > 0) {
        throw conflict(
          NAMESPACES,
          name,
          'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
        );
      }
      return jsonResponse(200, renderObject(scope, form, old));
    }
    const next: KubeObject = {
      ...old,
      metadata: { ...old.metadata, deletionTimestamp: formatTimestamp(this.#ctx.clock.now()), deletionGracePeriodSeconds: 0 },
      status: { ...(old.status as object), phase: 'Terminating' },
    };
    if (dryRun) return jsonResponse(200, renderObject(scope, form, next));
    const stored = store.update(NS_ID, name, next);
    this.#terminating.add(name);
    this.#ctx.defer(() => this.#cleanup(name));
    return jsonResponse(200, renderObject(scope, form, stored));
  }

  /** PUT `/finalize`: only `spec.finalizers` is taken from the body; an emptied, deleting namespace goes away. */
  finalize(scope: Scope, body: KubeObject, dryRun: boolean): ApiResponse {
    const store = this.#ctx.store;
    const old = store.get(NS_ID, scope.name);
    if (!old) throw notFound(NAMESPACES, scope.name);
    const rv = body.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) {
      throw modifiedConflict(NAMESPACES, scope.name);
    }
    const finalizers = specFinalizers(body);
    const next: KubeObject = { ...old, spec: { ...(old.spec as object), finalizers } };
    const form = negotiateOutput(headerOf(scope.req, 'accept'), scope.query.get('includeObject'));
    if (dryRun || jsonEqual(finalizers, specFinalizers(old))) return jsonResponse(200, renderObject(scope, form, dryRun ? next : old));
    const gone = !!old.metadata.deletionTimestamp && finalizers.length === 0 && (old.metadata.finalizers ?? []).length === 0;
    const stored = gone ? store.delete(NS_ID, scope.name, next) : store.update(NS_ID, scope.name, next);
    return jsonResponse(200, renderObject(scope, form, stored));
  }

  #cleanup(ns: string): void {
    for (const s of this.#ctx.registry.strategies()) {
      if (!s.namespaced) continue;
      for (const key of [...this.#ctx.store.current(s.storageId).keys()]) {
        if (!key.startsWith(`${ns}/`)) continue;
        const obj = this.#ctx.store.get(s.storageId, key);
        if (!obj || obj.metadata.deletionTimestamp) continue;
        performDelete(this.#ctx, s, key, { dryRun: false });
      }
    }
    this.#tryFinalize(ns);
  }

  /** What is left in `ns`: objects per resource, and the finalizers they still carry. */
  #remaining(ns: string): ContentTotals {
    const totals = { resources: new Map<string, number>(), finalizers: new Map<string, number>() };
    for (const s of this.#ctx.registry.strategies()) {
      if (!s.namespaced) continue;
      let count = 0;
      for (const [key, obj] of this.#ctx.store.current(s.storageId)) {
        if (!key.startsWith(`${ns}/`)) continue;
        count++;
        for (const f of obj.metadata.finalizers ?? []) totals.finalizers.set(f, (totals.finalizers.get(f) ?? 0) + 1);
      }
      if (count > 0) totals.resources.set(`${s.plural}.${s.group}`, count);
    }
    return totals;
  }

  /** Writes the deletion conditions for `totals` when they differ from the stored ones; returns the namespace as stored. */
  #writeConditions(obj: KubeObject, totals: ContentTotals): KubeObject {
    const status = (obj.status ?? {}) as { conditions?: NamespaceCondition[] };
    const conditions = namespaceDeletionConditions(status.conditions ?? [], totals, formatTimestamp(this.#ctx.clock.now()));
    if (conditions === undefined) return obj;
    return this.#ctx.store.update(NS_ID, obj.metadata.name ?? '', { ...obj, status: { ...status, conditions } });
  }

  #tryFinalize(ns: string): void {
    const store = this.#ctx.store;
    const obj = store.get(NS_ID, ns);
    if (!obj || !obj.metadata.deletionTimestamp) {
      this.#terminating.delete(ns);
      return;
    }
    const totals = this.#remaining(ns);
    const current = this.#writeConditions(obj, totals);
    if (totals.resources.size > 0) return;
    this.#terminating.delete(ns);
    const next: KubeObject = { ...current, spec: { ...(current.spec as object), finalizers: [] } };
    if ((current.metadata.finalizers ?? []).length === 0) store.delete(NS_ID, ns, next);
    else store.update(NS_ID, ns, next);
    this.#log.debug({ namespace: ns }, 'namespace finalized');
  }
}

export const specFinalizers = (ns: KubeObject): string[] => (ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
