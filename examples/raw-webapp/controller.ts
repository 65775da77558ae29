/**
 * The WebApp controller written once by hand, without the builder or the manager:
 *
 *   informer handler ─▶ key ─▶ rate-limited queue ─▶ N workers ─▶ lister read ─▶ reconcile ─▶ API writes
 *
 * Every piece the framework would give you is spelled out: informers from one factory, handlers that
 * only turn events into `namespace/name` keys (tombstones included), a queue with client-go's default
 * controller rate limiter, workers that `get`, `done`, `forget` or `addRateLimited`, reads from
 * listers (frozen cache objects: `clone` before changing one), and a reconcile that renders children
 * with the same pure functions as the builder version (`../webapp/render.ts`). It leaves out what the
 * builder version adds on top — finalizer and external cleanup, conditions, events, metrics — so the
 * skeleton stays visible.
 *
 * Invariant: a key is never processed by two workers at once (the queue guarantees it), and a key is
 * `done` exactly once per `get`, whatever the reconcile did.
 */
import {
  ConfigMapResource,
  DeploymentResource,
  ServiceResource,
  clone,
  getControllerOf,
  namespacedNameOf,
  newControllerRef,
  splitKey,
  type KubeObject,
  type Logger,
  type ObjectOf,
  type ResourceDescriptor,
} from 'kube-converge/meta';
import { isAlreadyExists, isConflict, isNotFound, type Client } from 'kube-converge/client';
import { SharedInformerFactory, type Lister } from 'kube-converge/cache';
import { RateLimitingQueue, defaultControllerRateLimiter, type RateLimiter, type RateLimitingInterface } from 'kube-converge/workqueue';
import { enqueueMappedKeys, enqueueObjectKey } from './handlers.js';
import { coversOwned } from '../webapp/owned-fields.js';
import { configHash, desiredDeployment, desiredService } from '../webapp/render.js';
import { WebApp } from '../webapp/types.js';

type WebAppObject = ObjectOf<typeof WebApp>;
type Deployment = ObjectOf<typeof DeploymentResource>;
type Service = ObjectOf<typeof ServiceResource>;
type ConfigMap = ObjectOf<typeof ConfigMapResource>;

export interface RawWebAppControllerOptions {
  client: Client;
  /** Parallel workers; default 2. */
  workers?: number;
  /** Default client-go's `defaultControllerRateLimiter()` (5 ms … 1000 s per key, 10 qps overall). */
  rateLimiter?: RateLimiter<string>;
  logger?: Logger;
}

export class RawWebAppController {
  readonly queue: RateLimitingInterface<string>;
  readonly #client: Client;
  readonly #workers: number;
  readonly #log: Logger | undefined;
  readonly #factory: SharedInformerFactory;
  readonly #apps: Lister<WebAppObject>;
  readonly #deployments: Lister<Deployment>;
  readonly #services: Lister<Service>;
  readonly #configMaps: Lister<ConfigMap>;

  constructor(options: RawWebAppControllerOptions) {
    this.#client = options.client;
    this.#workers = options.workers ?? 2;
    this.#log = options.logger;
    this.queue = new RateLimitingQueue<string>({
      name: 'raw-webapp',
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>(),
    });
    this.#factory = new SharedInformerFactory({ client: options.client });

    this.#apps = this.#factory.lister(WebApp);
    this.#deployments = this.#factory.lister(DeploymentResource);
    this.#services = this.#factory.lister(ServiceResource);
    this.#configMaps = this.#factory.lister(ConfigMapResource);

    this.#factory.informerFor(WebApp).addEventHandler(enqueueObjectKey(this.queue), { name: 'webapp' });
    // Children map to their controller owner; a ConfigMap maps to the WebApps naming it (a scan of
    // one namespace — the builder version keeps a field index instead).
    const toOwner = (child: KubeObject): string[] => {
      const ref = getControllerOf(child);
      return ref?.kind === WebApp.kind && ref.apiVersion === WebApp.apiVersion ? [`${child.metadata.namespace}/${ref.name}`] : [];
    };
    const toApps = (cm: ConfigMap): string[] =>
      this.#apps
        .list(cm.metadata.namespace)
        .filter((a) => a.spec.configRef === cm.metadata.name)
        .map((a) => key(a));
    this.#factory.informerFor(DeploymentResource).addEventHandler(enqueueMappedKeys(this.queue, toOwner), { name: 'webapp-deployments' });
    this.#factory.informerFor(ServiceResource).addEventHandler(enqueueMappedKeys(this.queue, toOwner), { name: 'webapp-services' });
    this.#factory.informerFor(ConfigMapResource).addEventHandler(enqueueMappedKeys(this.queue, toApps), { name: 'webapp-configmaps' });
  }

  /** Runs until `signal` aborts: informers first, workers only after every cache synced. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      this.#factory.start(signal);
      await this.#factory.waitForCacheSync({ signal });
      const workers = Array.from({ length: this.#workers }, () => this.#runWorker());
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      this.queue.shutDown();
      await Promise.all(workers);
    } finally {
      this.queue.shutDown();
      await this.#factory.stopped();
    }
  }

  async #runWorker(): Promise<void> {
    while (await this.#processNextItem());
  }

  async #processNextItem(): Promise<boolean> {
    const { item: key, shutdown } = await this.queue.get();
    if (shutdown) return false;
    try {
      await this.#sync(key);
      this.queue.forget(key); // success: clear the key's backoff
    } catch (err) {
      // A conflict only means our copy was stale: expected, so quiet. Anything else is worth a warning.
      const fields = { key, err, requeues: this.queue.numRequeues(key) };
      if (isConflict(err)) this.#log?.debug(fields, 'sync conflicted; requeued with backoff');
      else this.#log?.warn(fields, 'sync failed; requeued with backoff');
      this.queue.addRateLimited(key);
    } finally {
      this.queue.done(key);
    }
    return true;
  }

  async #sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const cached = this.#apps.get(namespace ?? '', name);
    // Gone: the children carry owner references, so the garbage collector removes them. External
    // cleanup would need a finalizer, set while the object still exists (see the builder version).
    if (!cached) return;
    // Lister objects are shared and frozen: work on a copy.
    const app = clone(cached) as WebAppObject;
    const cm = app.spec.configRef ? this.#configMaps.get(namespace ?? '', app.spec.configRef) : undefined;
    const deployment = await this.#ensure(DeploymentResource, this.#deployments, desiredDeployment(app, configHash(cm)), app);
    await this.#ensure(ServiceResource, this.#services, desiredService(app), app);

    const status = { observedGeneration: app.metadata.generation ?? 0, readyReplicas: deployment?.status?.readyReplicas ?? 0 };
    if (app.status?.observedGeneration === status.observedGeneration && app.status?.readyReplicas === status.readyReplicas) return;
    app.status = { ...app.status, ...status };
    // A full update carries the resourceVersion we read: a stale copy is refused with 409 Conflict,
    // never written, and the key is retried with backoff after the watch caught up.
    await this.#client.updateStatus(WebApp, app);
  }

  /** Creates the child, or merge-patches it when an owned field drifted. Returns it as last seen. */
  async #ensure<T extends KubeObject>(
    resource: ResourceDescriptor<T>,
    lister: Lister<T>,
    desired: T,
    app: WebAppObject,
  ): Promise<T | undefined> {
    // Lister objects may lack apiVersion/kind (list items usually do); the descriptor knows them.
    desired.metadata.ownerReferences = [newControllerRef({ ...app, apiVersion: WebApp.apiVersion, kind: WebApp.kind })];
    const current = lister.get(desired.metadata.namespace ?? '', desired.metadata.name!);
    if (!current) {
      try {
        return await this.#client.create(resource, desired);
      } catch (err) {
        // Our lister has not seen it yet: the watch event will bring it and wake us again.
        if (isAlreadyExists(err)) return undefined;
        throw err;
      }
    }
    if (getControllerOf(current)?.uid !== app.metadata.uid)
      throw new Error(`${resource.kind} ${key(current)} is not controlled by WebApp ${key(app)}`);
    if (coversOwned(current, desired)) return current;
    const { metadata, ...rest } = desired;
    try {
      return await this.#client.patch(resource, namespacedNameOf(desired), { ...rest, metadata: { labels: metadata.labels } }, 'merge');
    } catch (err) {
      if (isNotFound(err)) return undefined; // deleted meanwhile; its delete event requeues us
      throw err;
    }
  }
}

const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
