/**
 * Predicates: filters between a source and its handler, controller-runtime's `predicate` package. A
 * source calls the handler only if every one of its predicates passes (AND). A predicate has one
 * method per event type; `predicateFuncs` fills the missing ones with "pass".
 *
 * Pitfall common to every change detector here: they look at the update only, so they cannot tell
 * *why* nothing changed. Dropping an update also drops everything a reconcile would have fixed by
 * running then (drift, an external change to a child, a failed earlier attempt that is no longer being
 * retried). Put change detectors on the primary (`for`) watch only when the reconciler reads nothing
 * but `spec`; never put them on owned children, whose status changes are the whole point.
 */
import { selectorFromLabelSelector } from '../meta/index.js';
import type { KubeObject, LabelSelector, Selector } from '../meta/index.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from './events.js';

/** A filter between a source and its handler, with one check per event type. */
export interface Predicate<T extends KubeObject = KubeObject> {
  create(e: CreateEvent<T>): boolean;
  update(e: UpdateEvent<T>): boolean;
  delete(e: DeleteEvent<T>): boolean;
  generic(e: GenericEvent<T>): boolean;
}

/** A predicate from some of its methods; a missing method passes every event (controller-runtime's `Funcs`). */
export function predicateFuncs<T extends KubeObject = KubeObject>(fns: Partial<Predicate<T>>): Predicate<T> {
  return {
    create: fns.create ?? pass,
    update: fns.update ?? pass,
    delete: fns.delete ?? pass,
    generic: fns.generic ?? pass,
  };
}

const pass = (): boolean => true;

/** A predicate that applies `filter` to the event's object (the new object for updates). */
export function newPredicateFuncs<T extends KubeObject = KubeObject>(filter: (obj: T) => boolean): Predicate<T> {
  return {
    create: (e) => filter(e.object),
    update: (e) => filter(e.objectNew),
    delete: (e) => filter(e.object),
    generic: (e) => filter(e.object),
  };
}

/**
 * Passes updates whose `metadata.resourceVersion` changed: drops periodic resyncs and unchanged
 * relists. Every real write changes the resourceVersion, including status-only writes and your own
 * controller's writes, so this filters far less than it seems to. Other events pass.
 */
export const resourceVersionChangedPredicate: Predicate = predicateFuncs({
  update: (e) => e.objectOld.metadata.resourceVersion !== e.objectNew.metadata.resourceVersion,
});

/**
 * Passes updates whose `metadata.generation` changed, i.e. changes to `spec` (for kinds with a status
 * subresource). Other events pass.
 *
 * Pitfalls:
 * - status-only updates are dropped, so a controller that must react to its children's or its own
 *   status must not use it there;
 * - metadata-only changes are dropped too: labels, annotations, owner references, and **finalizer
 *   changes**, including a finalizer being removed while the object is being deleted
 *   (`deletionTimestamp` does not bump generation);
 * - periodic resyncs are dropped, so it defeats resync as a safety net;
 * - kinds without a status subresource (e.g. ConfigMap, Secret) never set generation: every update is
 *   dropped.
 */
export const generationChangedPredicate: Predicate = predicateFuncs({
  update: (e) => e.objectOld.metadata.generation !== e.objectNew.metadata.generation,
});

/**
 * Passes updates whose labels changed (an absent map equals an empty one). Other events pass. Drops
 * every spec and status change: combine with `or(generationChangedPredicate, labelChangedPredicate)`
 * to react to both.
 */
export const labelChangedPredicate: Predicate = predicateFuncs({
  update: (e) => !sameStringMap(e.objectOld.metadata.labels, e.objectNew.metadata.labels),
});

/**
 * Passes updates whose annotations changed (an absent map equals an empty one). Other events pass.
 * Tools that write annotations on every apply (e.g. `kubectl.kubernetes.io/last-applied-configuration`)
 * make this pass more often than expected.
 */
export const annotationChangedPredicate: Predicate = predicateFuncs({
  update: (e) => !sameStringMap(e.objectOld.metadata.annotations, e.objectNew.metadata.annotations),
});

function sameStringMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ka = a ? Object.keys(a) : [];
  const kb = b ? Object.keys(b) : [];
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!b || !Object.hasOwn(b, k) || b[k] !== a![k]) return false;
  }
  return true;
}

/** Passes an event only if every predicate does (short-circuit, per event type). `and()` passes everything. */
export function and<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (e) => predicates.every((p) => p.create(e)),
    update: (e) => predicates.every((p) => p.update(e)),
    delete: (e) => predicates.every((p) => p.delete(e)),
    generic: (e) => predicates.every((p) => p.generic(e)),
  };
}

/** Passes an event if any predicate does (short-circuit, per event type). `or()` passes nothing. */
export function or<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (e) => predicates.some((p) => p.create(e)),
    update: (e) => predicates.some((p) => p.update(e)),
    delete: (e) => predicates.some((p) => p.delete(e)),
    generic: (e) => predicates.some((p) => p.generic(e)),
  };
}

/** Passes exactly the events `predicate` drops. */
export function not<T extends KubeObject>(predicate: Predicate<T>): Predicate<T> {
  return {
    create: (e) => !predicate.create(e),
    update: (e) => !predicate.update(e),
    delete: (e) => !predicate.delete(e),
    generic: (e) => !predicate.generic(e),
  };
}

/**
 * Passes events whose object's labels match `selector` (the new object for updates). Takes a parsed
 * `Selector` or a `LabelSelector` struct; an invalid struct throws `SelectorParseError` here, when the
 * predicate is built. As with the struct everywhere in Kubernetes, `{}` matches everything.
 *
 * Pitfall: an update that moves an object *out* of the selection is dropped, so the reconciler never
 * hears that the object left; use a map function over both old and new objects if that matters.
 */
export function labelSelectorPredicate<T extends KubeObject = KubeObject>(selector: Selector | LabelSelector): Predicate<T> {
  const s = isSelector(selector) ? selector : selectorFromLabelSelector(selector);
  return newPredicateFuncs<T>((obj) => s.matches(obj.metadata.labels));
}

function isSelector(s: Selector | LabelSelector): s is Selector {
  return typeof (s as Selector).matches === 'function';
}
