/**
 * A lint for owner references that point into another cluster. A member's garbage collector deletes
 * an object whose owner it cannot find, so an object written into cluster X with an owner that lives
 * in cluster Y (or in the hub) is deleted soon after it is created, and recreated, and deleted again.
 * The lint remembers which cluster each object a multi-cluster controller's sources delivered lives
 * in (by uid; the hub for `watchesLocal` sources), and warns, once per owner and cluster, when a
 * reconciler writes an object through `ctx.client` whose owner reference names an object of another
 * cluster. It only warns: the write goes through, as the API server would take it.
 */
import type { KubeObject, Logger, OwnerReference } from '../meta/index.js';
import type { EventHandler } from '../controller/index.js';
import type { ManagerClient } from '../manager/index.js';

/** Where the hub's objects are said to live in the lint's messages. */
const HUB = 'the hub';

/** Remembers where delivered objects live and checks the owner references of writes against it. */
export class CrossClusterOwnerLint {
  readonly #home = new Map<string, string>();
  readonly #warned = new Set<string>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  /** `handler`, remembering the cluster (`undefined`: the hub) of every object it is handed. */
  recording<T extends KubeObject>(handler: EventHandler<T>, cluster: string | undefined): EventHandler<T> {
    const home = cluster ?? HUB;
    const keep = (obj: KubeObject): void => {
      if (obj.metadata.uid) this.#home.set(obj.metadata.uid, home);
    };
    return {
      create: (e, q) => (keep(e.object), handler.create(e, q)),
      update: (e, q) => (keep(e.objectNew), handler.update(e, q)),
      delete: (e, q) => {
        if (e.object.metadata.uid) this.#home.delete(e.object.metadata.uid);
        handler.delete(e, q);
      },
      generic: (e, q) => (keep(e.object), handler.generic(e, q)),
    };
  }

  /** `client` of `cluster`, whose create, update and patch bodies have their owner references checked. */
  checking(client: ManagerClient, cluster: string): ManagerClient {
    const check = (body: unknown): void => this.#check(body, cluster);
    // The proxy's target is a fresh object: the manager's client is frozen, and a proxy of a frozen
    // object may not hand out anything but its own (unwrapped) functions.
    return new Proxy({} as ManagerClient, {
      get: (_, prop) => {
        const value: unknown = Reflect.get(client, prop);
        if (typeof value !== 'function') return value;
        const fn = (value as (...args: unknown[]) => unknown).bind(client);
        if (prop === 'create' || prop === 'update') return (...args: unknown[]) => (check(args[1]), fn(...args));
        if (prop === 'patch') return (...args: unknown[]) => (check(args[2]), fn(...args));
        return fn;
      },
    });
  }

  #check(body: unknown, cluster: string): void {
    const refs = (body as { metadata?: { ownerReferences?: unknown } } | undefined)?.metadata?.ownerReferences;
    if (!Array.isArray(refs)) return;
    for (const ref of refs as OwnerReference[]) {
      const home = this.#home.get(ref.uid);
      if (home === undefined || home === cluster) continue;
      const key = `${ref.uid} ${cluster}`;
      if (this.#warned.has(key)) continue;
      this.#warned.add(key);
      this.#log.warn(
        { cluster, owner: `${ref.kind}/${ref.name}`, ownerUid: ref.uid, ownerCluster: home },
        `owner reference into another cluster: ${ref.kind} ${ref.name} lives in ${home === HUB ? HUB : `cluster ${home}`}, so the garbage collector of cluster ${cluster} will delete what it owns there; use a label instead`,
      );
    }
  }
}
