/**
 * What the apiextensions controllers do, run synchronously on the storage's own events: when a CRD
 * is stored with accepted names, its custom resources are served (registry updated in the same
 * write, so the next request already finds them); when a CRD is marked deleted, it gets the
 * `Terminating` condition, its custom resources are deleted (their finalizers honoured), and once
 * none is left the cleanup finalizer is removed so the CRD goes away, with its endpoints and watches.
 * Invariant: a kind is served exactly while its CRD exists, has accepted names and is not deleted.
 */
import { formatTimestamp, type KubeObject, type Logger } from '../../meta/index.js';
import type { ServerContext } from '../registry/index.js';
import { performDelete } from '../handlers/index.js';
import { CRD_FINALIZER, crdOf } from '../registry/index.js';
import { CustomResourceStrategy } from '../registry/index.js';
import type { StoredEvent } from '../storage/index.js';

const CRD_ID = 'apiextensions.k8s.io/customresourcedefinitions';

export class CrdController {
  readonly #ctx: ServerContext;
  readonly #log: Logger;
  /** CRD name → storage id of the custom resources it serves. */
  readonly #served = new Map<string, string>();
  readonly #terminating = new Set<string>();

  constructor(ctx: ServerContext, log: Logger) {
    this.#ctx = ctx;
    this.#log = log;
    ctx.store.subscribe((e) => this.#onEvent(e));
  }

  #onEvent(e: StoredEvent): void {
    if (e.resource === CRD_ID) {
      if (e.type === 'DELETED') this.#unserve(e.key);
      else this.#sync(e.object);
      return;
    }
    if (e.type === 'DELETED') {
      for (const name of this.#terminating) {
        if (this.#served.get(name) === e.resource) this.#ctx.defer(() => this.#tryFinish(name));
      }
    }
  }

  #sync(obj: KubeObject): void {
    const name = obj.metadata.name!;
    const crd = crdOf(obj);
    const accepted = (crd.status?.conditions ?? []).some((c) => c.type === 'NamesAccepted' && c.status === 'True');
    if (!accepted) {
      this.#unserve(name);
      return;
    }
    const id = `${crd.spec.group}/${crd.spec.names.plural}`;
    const prevId = this.#served.get(name);
    if (prevId && prevId !== id) this.#unserve(name);
    this.#ctx.registry.add(new CustomResourceStrategy(crd, () => this.#terminating.has(name)));
    this.#served.set(name, id);
    if (obj.metadata.deletionTimestamp && !this.#terminating.has(name)) {
      this.#terminating.add(name);
      this.#ctx.defer(() => this.#startCleanup(name));
    }
  }

  #unserve(name: string): void {
    const id = this.#served.get(name);
    this.#terminating.delete(name);
    if (!id) return;
    this.#served.delete(name);
    this.#ctx.registry.remove(id);
    this.#ctx.hub.closeAll(id);
  }

  #startCleanup(name: string): void {
    const store = this.#ctx.store;
    const crd = store.get(CRD_ID, name);
    if (!crd) return;
    const conditions = [
      ...(crdOf(crd).status?.conditions ?? []).filter((c) => c.type !== 'Terminating'),
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
        lastTransitionTime: formatTimestamp(this.#ctx.clock.now()),
      },
    ];
    store.update(CRD_ID, name, { ...crd, status: { ...(crd.status as object), conditions } });
    const id = this.#served.get(name);
    const strategy = id ? this.#ctx.registry.byId(id) : undefined;
    if (strategy) {
      for (const key of [...store.current(strategy.storageId).keys()]) {
        const obj = store.get(strategy.storageId, key);
        if (obj && !obj.metadata.deletionTimestamp) performDelete(this.#ctx, strategy, key, { dryRun: false });
      }
    }
    this.#tryFinish(name);
  }

  #tryFinish(name: string): void {
    const store = this.#ctx.store;
    const id = this.#served.get(name);
    if (id && store.current(id).size > 0) return;
    const crd = store.get(CRD_ID, name);
    if (!crd || !crd.metadata.finalizers?.includes(CRD_FINALIZER)) return;
    const finalizers = crd.metadata.finalizers.filter((f) => f !== CRD_FINALIZER);
    const next = { ...crd, metadata: { ...crd.metadata, finalizers } };
    if (finalizers.length === 0) store.delete(CRD_ID, name, next);
    else store.update(CRD_ID, name, next);
    this.#log.debug({ crd: name }, 'custom resource definition cleaned up');
  }
}
