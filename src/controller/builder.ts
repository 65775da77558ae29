/**
 * The builder: the usual way to make a controller (controller-runtime's `builder`).
 *
 * ```ts
 * controllerManagedBy(mgr)
 *   .for(WebApp)                                  // reconcile WebApps …
 *   .owns(DeploymentResource)                     // … when they or the Deployments they control change
 *   .watches(SecretResource, enqueueRequestsFromMapFunc(appsUsingSecret))
 *   .complete(reconcileWebApp);
 * ```
 *
 * Rules (controller-runtime's): `for` at most once; `owns` needs `for`; the name is `named(…)` or the
 * lower-case kind of `for`, and must be unique on the host unless `skipNameValidation`; at least one
 * watch. Violations are collected as they happen and thrown by `build`, naming every one. Predicates
 * from `withEventFilter` apply to `for`, `owns` and `watches` (before their own), not to raw sources.
 * The controller is added to the host as a runnable that needs leader election (unless the options
 * say otherwise).
 */
import { InvalidOptionError } from '../meta/index.js';
import type { KubeObject, ResourceDescriptor } from '../meta/index.js';
import { BuilderSettings } from './builder-settings.js';
import { newUnmanagedController } from './controller.js';
import type { Controller } from './controller.js';
import { enqueueRequestForObject } from './enqueue-request-for-object.js';
import { enqueueRequestForOwner } from './enqueue-request-for-owner.js';
import type { EventHandler } from './handler.js';
import type { ControllerHost } from './host.js';
import { kindSource } from './kind-source.js';
import type { Predicate } from './predicate.js';
import type { Reconciler } from './reconciler.js';
import type { Source } from './source.js';

/** Options of `Builder.for`: the predicates that filter events of the reconciled kind. */
export interface ForOptions<T extends KubeObject> {
  predicates?: Predicate<T>[];
}

/** Options of `Builder.owns`: the predicates for the owned kind, and whether only controller owners are enqueued. */
export interface OwnsOptions<T extends KubeObject> {
  predicates?: Predicate<T>[];
  /** Only the controller owner reference counts (default true); false enqueues every owner of the `for` kind. */
  onlyController?: boolean;
}

/** Options of `Builder.watches`: the predicates for the extra watched kind. */
export interface WatchesOptions<T extends KubeObject> {
  predicates?: Predicate<T>[];
}

/** Starts a builder for a controller run by `host` (controller-runtime's `ControllerManagedBy`). */
export function controllerManagedBy<C>(host: ControllerHost<C>): Builder<C> {
  return new Builder(host);
}

/** Sources to make once the options are known; each closure captures its own kind's type. */
type SourceFactory = (global: readonly Predicate[]) => Source;

/** Builds a controller step by step: what it reconciles, what it owns and watches, and its options. */
export class Builder<C> extends BuilderSettings {
  readonly #host: ControllerHost<C>;
  #for: ResourceDescriptor<KubeObject> | undefined;
  readonly #sources: SourceFactory[] = [];
  #ownsCalled = false;
  readonly #owned: ResourceDescriptor<KubeObject>[] = [];
  readonly #problems: { path: string; reason: string }[] = [];

  constructor(host: ControllerHost<C>) {
    super();
    this.#host = host;
  }

  /** The primary kind: its events enqueue the object itself. At most once. */
  for<T extends KubeObject>(resource: ResourceDescriptor<T>, options: ForOptions<T> = {}): this {
    if (this.#for) {
      this.#problems.push({ path: 'builder.for', reason: 'for() may only be called once: a controller reconciles one kind' });
      return this;
    }
    this.#for = resource as ResourceDescriptor<KubeObject>;
    const own = options.predicates ?? [];
    // The primary watch goes first, like controller-runtime's `For` source.
    this.#sources.unshift((global) => kindSource(resource, enqueueRequestForObject<T>(), ...global, ...own));
    return this;
  }

  /** A kind the primary creates: its events enqueue its owner of the `for` kind. Needs `for`. */
  owns<T extends KubeObject>(resource: ResourceDescriptor<T>, options: OwnsOptions<T> = {}): this {
    const own = options.predicates ?? [];
    const onlyController = options.onlyController ?? true;
    this.#sources.push((global) => {
      const owner = this.#for!; // build() refuses to get here without for()
      return kindSource(resource, enqueueRequestForOwner<T>(owner, { onlyController }), ...global, ...own);
    });
    this.#ownsCalled = true;
    this.#owned.push(resource as ResourceDescriptor<KubeObject>);
    return this;
  }

  /** Any kind, with any handler (e.g. `enqueueRequestsFromMapFunc`). */
  watches<T extends KubeObject>(resource: ResourceDescriptor<T>, handler: EventHandler<T>, options: WatchesOptions<T> = {}): this {
    const own = options.predicates ?? [];
    this.#sources.push((global) => kindSource(resource, handler, ...global, ...own));
    return this;
  }

  /** A source used as is: `withEventFilter` predicates do not apply to it. */
  watchesRawSource(source: Source): this {
    this.#sources.push(() => source);
    return this;
  }

  /** Builds the controller, adds it to the host and returns it. Throws `InvalidOptionError` naming every rule broken. */
  build(reconciler: Reconciler<C>): Controller<C> {
    const problems = [...this.#problems];
    if (this.#ownsCalled && !this.#for) problems.push({ path: 'builder.owns', reason: 'owns() can only be used together with for()' });
    const name = this.controllerName ?? this.#for?.kind.toLowerCase();
    if (!name) problems.push({ path: 'builder.named', reason: 'one of for() or named() must be called' });
    if (this.#sources.length === 0) {
      problems.push({
        path: 'builder.watches',
        reason:
          'there are no watches configured, the controller would never be triggered: use for(), owns(), watches() or watchesRawSource()',
      });
    }
    const first = problems[0];
    if (first) {
      throw new InvalidOptionError(first.path, problems.map((p) => p.reason).join('; '));
    }
    // Watches go in before the host sees the controller: a running host starts it at once.
    const controller = newUnmanagedController(this.#host, {
      ...this.controllerOptions,
      name: name!,
      reconciler,
      forResource: this.#for,
      ownedResources: this.#owned,
    });
    // Before start, watch() records the source synchronously and cannot reject.
    for (const make of this.#sources) void controller.watch(make(this.eventFilters));
    this.#host.add(controller);
    return controller;
  }

  /** `build` without the controller. */
  complete(reconciler: Reconciler<C>): void {
    this.build(reconciler);
  }
}
