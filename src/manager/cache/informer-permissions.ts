/**
 * The informers' permissions, seen from the client they list and watch through: a list or watch
 * refused with 403 is kept as an `InformerForbiddenError` for its resource, namespace and verb
 * until the same call next succeeds, and is logged once when it appears and once when it clears —
 * not on every backoff retry. Invariant: `check()` (the manager's readiness) fails exactly while
 * some informer's list or watch is being refused, naming each resource and missing verb.
 */
import { isForbidden, type Client, type ListOptions, type WatchOptions } from '../../client/index.js';
import type { KubeObject, Logger, ResourceDescriptor } from '../../meta/index.js';
import { InformerForbiddenError } from './errors.js';

const rbacName = (r: ResourceDescriptor): string => (r.group ? `${r.plural}.${r.group}` : r.plural);

export class InformerPermissions {
  readonly #log: Logger;
  readonly #denied = new Map<string, InformerForbiddenError>();

  constructor(log: Logger) {
    this.#log = log;
  }

  /** `client` whose list and watch report their outcome here. */
  observe(client: Client): Client {
    const track = <R>(r: ResourceDescriptor, verb: 'list' | 'watch', namespace: string | undefined, call: Promise<R>): Promise<R> =>
      call.then(
        (v) => (this.#allowed(r, verb, namespace ?? ''), v),
        (err: unknown) => {
          if (isForbidden(err)) this.#refused(r, verb, namespace ?? '', err);
          throw err;
        },
      );
    const list = <T extends KubeObject>(r: ResourceDescriptor<T>, o?: ListOptions) =>
      track(r as ResourceDescriptor, 'list', o?.namespace, client.list(r, o));
    const watch = <T extends KubeObject>(r: ResourceDescriptor<T>, o?: WatchOptions) =>
      track(r as ResourceDescriptor, 'watch', o?.namespace, client.watch(r, o));
    return new Proxy(client, {
      get(target, p) {
        if (p === 'list') return list;
        if (p === 'watch') return watch;
        const v = Reflect.get(target, p) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** Throws the refusals in force (one error, or one naming them all). */
  check(): void {
    const errors = [...this.#denied.values()];
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, errors.map((e) => e.message).join('; '));
  }

  #refused(r: ResourceDescriptor, verb: 'list' | 'watch', namespace: string, err: unknown): void {
    const key = `${rbacName(r)} ${namespace} ${verb}`;
    const message = (err as { status?: { message?: string } }).status?.message ?? String(err);
    if (this.#denied.get(key)?.serverMessage === message) return;
    const e = new InformerForbiddenError(r.kind, rbacName(r), verb, namespace, message);
    this.#denied.set(key, e);
    this.#log.error({ code: e.code, kind: r.kind, resource: e.resource, verb, namespace, err: message }, e.message);
  }

  #allowed(r: ResourceDescriptor, verb: 'list' | 'watch', namespace: string): void {
    const key = `${rbacName(r)} ${namespace} ${verb}`;
    if (!this.#denied.delete(key)) return;
    this.#log.info({ kind: r.kind, resource: rbacName(r), verb, namespace }, `the ${r.kind} informer may ${verb} again`);
  }
}
