/**
 * Deep freeze and deep clone for JSON-shaped values: what caches hand out is frozen (reads are
 * zero-copy and a stray write throws instead of corrupting the cache), and `clone` is how a
 * reconciler gets a mutable copy to edit and send back.
 *
 * Invariant: every value `deepFreeze` returns is frozen all the way down. To keep repeated freezes
 * O(1) without trusting objects that someone else froze only shallowly, deepFreeze remembers the
 * roots it has frozen (in a WeakSet, so they are not kept alive) and skips exactly those subtrees.
 * The walk freezes children before parents and never calls itself for a primitive, which matters on
 * decoded objects made of many tiny parts (managedFields): see `bench/informer`.
 *
 * `clone` copies plain objects and arrays recursively and shares nothing with its input; it never
 * returns frozen objects. Measured in `bench/meta/clone.bench.ts` against `structuredClone` and a JSON
 * round trip: the hand-written copy wins several times over on 2–4 KiB objects, because it skips the
 * serialisation the other two do. Values must be JSON-shaped (no Dates, Maps, class instances or
 * cycles); `undefined` properties are kept, unlike a JSON round trip.
 */
import type { DeepReadonly } from './object.js';

/** The mutable form of a deep-readonly type: what `clone` gives back. */
export type DeepMutable<T> =
  T extends ReadonlyArray<infer E> ? DeepMutable<E>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;

const frozenRoots = new WeakSet<object>();

/**
 * Freezes `v` and everything under it, children first. Primitives are skipped before any call, and a
 * child is skipped only when it is frozen and deepFreeze finished it as a root (the cheap frozen check
 * comes first, so a freshly decoded object never pays for a WeakSet lookup).
 */
function freezeWalk(v: object): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null && !(Object.isFrozen(e) && frozenRoots.has(e))) freezeWalk(e);
    }
  } else {
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const e = o[k];
      if (typeof e === 'object' && e !== null && !(Object.isFrozen(e) && frozenRoots.has(e))) freezeWalk(e);
    }
  }
  Object.freeze(v);
}

/** Freezes `obj` and everything reachable from it, in place, and returns it typed as deep-readonly. */
export function deepFreeze<T>(obj: T): DeepReadonly<T> {
  if (typeof obj === 'object' && obj !== null && !frozenRoots.has(obj)) {
    freezeWalk(obj);
    frozenRoots.add(obj);
  }
  return obj as DeepReadonly<T>;
}

/**
 * `deepFreeze` for an object nobody has seen yet (just decoded), frozen once and never again: the
 * same deep freeze, without remembering `obj` as a finished root. On an informer's watch stream the
 * WeakSet entry costs more than the whole walk saves (an identity hash and an ephemeron entry per
 * event, and work for every scavenge), while repeat freezes of such objects do not happen on that
 * path. A later `deepFreeze` of the object still returns at once after one walk of no-op freezes.
 *
 * Every empty object below the root is replaced by one shared frozen `{}`: managedFields' `fieldsV1`
 * is mostly empty objects (`"f:name":{}`), some hundred per entry, each a separate allocation after
 * JSON.parse; sharing them is what keeps a cached object with managedFields smaller than the parse
 * result (see BENCHMARKS.md). An empty object has no identity worth keeping once it is frozen.
 * @extension
 */
export function deepFreezeFresh<T extends object>(obj: T): DeepReadonly<T> {
  if (freshWalk(obj)) Object.freeze(obj);
  return obj as DeepReadonly<T>;
}

const EMPTY: object = Object.freeze({});

/**
 * `freezeWalk` that also swaps empty child objects for `EMPTY`. Returns whether `v` itself is an empty
 * plain object, which it then leaves unfrozen: the caller puts `EMPTY` in its place, and freezing an
 * object about to be dropped is a third of the walk's cost on managedFields.
 */
function freshWalk(v: object): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null && !(Object.isFrozen(e) && frozenRoots.has(e)) && freshWalk(e)) v[i] = EMPTY;
    }
    Object.freeze(v);
    return false;
  }
  const o = v as Record<string, unknown>;
  let empty = true;
  for (const k in o) {
    empty = false;
    const e = o[k];
    if (typeof e === 'object' && e !== null && !(Object.isFrozen(e) && frozenRoots.has(e)) && freshWalk(e)) {
      // Assigning `__proto__` would replace the prototype; such a child is frozen where it is.
      if (k !== '__proto__') o[k] = EMPTY;
      else Object.freeze(e);
    }
  }
  if (empty && Object.getPrototypeOf(v) === Object.prototype) return true;
  Object.freeze(v);
  return false;
}

/** A mutable deep copy of a JSON-shaped value (frozen or not). */
export function clone<T>(obj: T): DeepMutable<T> {
  return copy(obj) as DeepMutable<T>;
}

function copy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const e: unknown = v[i];
      out[i] = typeof e === 'object' && e !== null ? copy(e) : e;
    }
    return out;
  }
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in src) {
    const e = src[k];
    const c = typeof e === 'object' && e !== null ? copy(e) : e;
    // Assigning `__proto__` would replace the copy's prototype; JSON.parse makes it an own property.
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}
