/**
 * Owner-reference garbage collection (https://kubernetes.io/docs/concepts/architecture/garbage-collection/),
 * the part kube-controller-manager does in a cluster,
 * off by default (envtest runs none). Reacting to the storage's own events: a dependent whose owners
 * are all absent (not found, or found with another uid) is deleted; one with some live owners loses
 * the references to the absent ones; an owner deleted with `Foreground` has its dependents deleted
 * and loses its `foregroundDeletion` finalizer once no dependent blocking it remains; an owner
 * deleted with `Orphan` has its references stripped from dependents, then loses `orphan`.
 * Invariant: the collector only deletes objects through the normal delete path (finalizers honoured,
 * uid precondition), and never touches an object with a live owner.
 */
import { InvalidOptionError, parseGroupVersion, type KubeObject, type Logger, type OwnerReference } from '../../meta/index.js';
import type { ServerContext } from '../registry/index.js';
import { performDelete } from '../handlers/index.js';
import type { Strategy } from '../registry/index.js';
import { ApiStatusError } from '../ground/index.js';
import type { StoredEvent } from '../storage/index.js';

interface Located {
  strategy: Strategy;
  key: string;
  obj: KubeObject;
}

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';

export class GarbageCollector {
  readonly #ctx: ServerContext;
  readonly #log: Logger;

  constructor(ctx: ServerContext, log: Logger) {
    this.#ctx = ctx;
    this.#log = log;
    ctx.store.subscribe((e) => this.#onEvent(e));
  }

  #onEvent(e: StoredEvent): void {
    const m = e.object.metadata;
    const defer = (task: () => void): void => this.#ctx.defer(() => this.#guard(task));
    if (e.type === 'DELETED') {
      const uid = m.uid;
      if (uid) defer(() => this.#ownerGone(uid));
      for (const ref of m.ownerReferences ?? []) defer(() => this.#dependentGone(e.object, ref));
      return;
    }
    const strategy = this.#ctx.registry.byId(e.resource);
    if (!strategy) return;
    if (m.deletionTimestamp && m.finalizers?.includes(FOREGROUND)) defer(() => this.#foreground(strategy, e.key));
    if (m.deletionTimestamp && m.finalizers?.includes(ORPHAN)) defer(() => this.#orphan(strategy, e.key));
    if (e.type === 'ADDED' && (m.ownerReferences ?? []).length > 0) defer(() => this.#checkDependent(strategy, e.key));
  }

  /** Runs a step; losing a race (the object changed or went away meanwhile) is expected and only logged. */
  #guard(task: () => void): void {
    try {
      task();
    } catch (err) {
      if (!(err instanceof ApiStatusError) || (err.status.code !== 404 && err.status.code !== 409)) throw err;
      this.#log.debug({ reason: err.status.reason, message: err.status.message }, 'garbage collector lost a race');
    }
  }

  #owner(dependent: KubeObject, ref: OwnerReference): Located | undefined {
    let group: string;
    try {
      group = parseGroupVersion(ref.apiVersion).group;
    } catch (e) {
      // An owner reference whose apiVersion does not parse names no object that could own this one.
      if (!(e instanceof InvalidOptionError)) throw e;
      return undefined;
    }
    for (const s of this.#ctx.registry.strategies()) {
      if (s.group !== group || s.kind !== ref.kind) continue;
      const key = s.namespaced ? `${dependent.metadata.namespace ?? ''}/${ref.name}` : ref.name;
      const obj = this.#ctx.store.get(s.storageId, key);
      if (obj) return { strategy: s, key, obj };
    }
    return undefined;
  }

  #alive(dependent: KubeObject, ref: OwnerReference): boolean {
    return this.#owner(dependent, ref)?.obj.metadata.uid === ref.uid;
  }

  #dependentsOf(uid: string): Located[] {
    const out: Located[] = [];
    for (const s of this.#ctx.registry.strategies()) {
      for (const [key, obj] of this.#ctx.store.current(s.storageId)) {
        if (obj.metadata.ownerReferences?.some((r) => r.uid === uid)) out.push({ strategy: s, key, obj });
      }
    }
    return out;
  }

  #ownerGone(uid: string): void {
    for (const d of this.#dependentsOf(uid)) this.#checkDependent(d.strategy, d.key);
  }

  #dependentGone(dependent: KubeObject, ref: OwnerReference): void {
    const owner = this.#owner(dependent, ref);
    if (owner && owner.obj.metadata.uid === ref.uid && owner.obj.metadata.finalizers?.includes(FOREGROUND))
      this.#foreground(owner.strategy, owner.key);
  }

  #checkDependent(strategy: Strategy, key: string): void {
    const obj = this.#ctx.store.get(strategy.storageId, key);
    if (!obj || obj.metadata.deletionTimestamp) return;
    const refs = obj.metadata.ownerReferences ?? [];
    const alive = refs.filter((r) => this.#alive(obj, r));
    if (alive.length === refs.length) return;
    if (alive.length > 0) {
      this.#ctx.store.update(strategy.storageId, key, { ...obj, metadata: { ...obj.metadata, ownerReferences: alive } });
      return;
    }
    performDelete(this.#ctx, strategy, key, { dryRun: false, preconditions: { uid: obj.metadata.uid! } });
  }

  #foreground(strategy: Strategy, key: string): void {
    const owner = this.#ctx.store.get(strategy.storageId, key);
    if (!owner?.metadata.deletionTimestamp || !owner.metadata.finalizers?.includes(FOREGROUND)) return;
    const uid = owner.metadata.uid!;
    const dependents = this.#dependentsOf(uid);
    for (const d of dependents) {
      if (!d.obj.metadata.deletionTimestamp)
        performDelete(this.#ctx, d.strategy, d.key, { dryRun: false, preconditions: { uid: d.obj.metadata.uid! } });
    }
    const blocking = this.#dependentsOf(uid).some((d) =>
      d.obj.metadata.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion),
    );
    if (!blocking) this.#removeFinalizer(strategy, key, FOREGROUND);
  }

  #orphan(strategy: Strategy, key: string): void {
    const owner = this.#ctx.store.get(strategy.storageId, key);
    if (!owner?.metadata.deletionTimestamp || !owner.metadata.finalizers?.includes(ORPHAN)) return;
    const uid = owner.metadata.uid!;
    for (const d of this.#dependentsOf(uid)) {
      const refs = (d.obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      const meta = { ...d.obj.metadata, ownerReferences: refs };
      if (refs.length === 0) delete (meta as { ownerReferences?: unknown }).ownerReferences;
      this.#ctx.store.update(d.strategy.storageId, d.key, { ...d.obj, metadata: meta });
    }
    this.#removeFinalizer(strategy, key, ORPHAN);
  }

  #removeFinalizer(strategy: Strategy, key: string, finalizer: string): void {
    const obj = this.#ctx.store.get(strategy.storageId, key);
    if (!obj?.metadata.finalizers?.includes(finalizer)) return;
    const finalizers = obj.metadata.finalizers.filter((f) => f !== finalizer);
    const next = { ...obj, metadata: { ...obj.metadata, finalizers } };
    if (obj.metadata.deletionTimestamp && finalizers.length === 0) this.#ctx.store.delete(strategy.storageId, key, next);
    else this.#ctx.store.update(strategy.storageId, key, next);
  }
}
