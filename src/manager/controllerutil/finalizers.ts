/**
 * Finalizers: controllerutil's `addFinalizer` / `removeFinalizer` / `containsFinalizer` on an object's
 * `metadata.finalizers`, and the `Finalizers` registry of controller-runtime's `pkg/finalizer`. While
 * an object lives, the registry makes sure every registered key is present; once it is being deleted,
 * it runs each registered finalizer whose key is present and removes the key when that finalizer
 * succeeds. Invariant: a key is removed only after its finalizer succeeded, so a failing cleanup keeps
 * the object (and is retried by the next reconcile).
 */
import { InvalidOptionError, type KubeObject } from '../../meta/index.js';

/** Adds `finalizer` unless present; true when the list changed. Mutates `obj`. */
export function addFinalizer(obj: KubeObject, finalizer: string): boolean {
  const list = obj.metadata.finalizers ?? [];
  if (list.includes(finalizer)) return false;
  obj.metadata.finalizers = [...list, finalizer];
  return true;
}

/** Removes every occurrence of `finalizer`; true when the list changed. Mutates `obj`. */
export function removeFinalizer(obj: KubeObject, finalizer: string): boolean {
  const list = obj.metadata.finalizers ?? [];
  const kept = list.filter((f) => f !== finalizer);
  if (kept.length === list.length) return false;
  obj.metadata.finalizers = kept;
  return true;
}

/** True when `obj` carries `finalizer` in `metadata.finalizers`. */
export function containsFinalizer(obj: Pick<KubeObject, 'metadata'>, finalizer: string): boolean {
  return obj.metadata.finalizers?.includes(finalizer) ?? false;
}

/** What a finalizer (or the whole registry) changed on the object the caller must now write. */
export interface FinalizerResult {
  /** Something outside status changed (finalizer keys included): write with update/patch. */
  updated: boolean;
  /** Status changed: write with the status writer. */
  statusUpdated: boolean;
}

/** Cleanup for one finalizer key. It may change `obj` and says what it changed; throwing keeps the key. */
export interface Finalizer<T extends KubeObject = KubeObject> {
  finalize(
    obj: T,
    options: { signal?: AbortSignal | undefined },
  ): Promise<Partial<FinalizerResult> | void> | Partial<FinalizerResult> | void;
}

/** What `Finalizers.finalize` did to an object, and which finalizers failed. */
export interface FinalizeOutcome extends FinalizerResult {
  /** Failures of individual finalizers (their keys stay); undefined when all succeeded. */
  error: AggregateError | undefined;
}

/** A registry of finalizers by key, which adds them to live objects and runs them on deleted ones. */
export class Finalizers<T extends KubeObject = KubeObject> {
  readonly #finalizers = new Map<string, Finalizer<T>>();

  register(key: string, finalizer: Finalizer<T>): void {
    if (!key) throw new InvalidOptionError('finalizer', 'key must not be empty');
    if (this.#finalizers.has(key))
      throw new InvalidOptionError(`finalizer.${key}`, `finalizer for key ${JSON.stringify(key)} already registered`);
    this.#finalizers.set(key, finalizer);
  }

  /**
   * Adds missing keys to a live object, or runs the finalizers of a deleted one (keys in registration
   * order). Mutates `obj`; the caller writes it when `updated`/`statusUpdated` say so — even when
   * `error` is set, because the keys of finalizers that succeeded were removed.
   */
  async finalize(obj: T, options: { signal?: AbortSignal | undefined } = {}): Promise<FinalizeOutcome> {
    const out: FinalizeOutcome = { updated: false, statusUpdated: false, error: undefined };
    if (!obj.metadata.deletionTimestamp) {
      for (const key of this.#finalizers.keys()) if (addFinalizer(obj, key)) out.updated = true;
      return out;
    }
    const errors: unknown[] = [];
    for (const [key, finalizer] of this.#finalizers) {
      if (!containsFinalizer(obj, key)) continue;
      try {
        const r = await finalizer.finalize(obj, options);
        if (r?.updated) out.updated = true;
        if (r?.statusUpdated) out.statusUpdated = true;
        if (removeFinalizer(obj, key)) out.updated = true;
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) out.error = new AggregateError(errors, `${errors.length} finalizer(s) failed`);
    return out;
  }
}
