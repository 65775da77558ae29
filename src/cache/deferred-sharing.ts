/**
 * When a cache that does not freeze shares the empty objects of a watched object's managedFields
 * (`shareEmptyManagedFields`): not as the object arrives, but once it has been current for a while.
 * The walk costs about a fifth of parsing the event, and a version replaced soon after it arrived (a
 * Lease renewed, a status written several times while a Pod starts, a ConfigMap rewritten in a loop)
 * never needed it. So each watched object is noted here and walked at the next pass: `SHARE_AFTER_MS`
 * after the first object noted since the last pass, or at once when `PENDING_LIMIT` objects wait. A
 * version replaced or deleted before its pass is never walked. Listed objects are not deferred: a
 * relist keeps them all, and they are shared as they arrive so its peak heap stays low.
 * Invariant: at most `PENDING_LIMIT` stored objects hold their own empty objects, each for at most
 * `SHARE_AFTER_MS`; a pass walks only objects the store still holds.
 */
import type { Clock, KubeObject, Timer } from '../meta/index.js';
import { shareEmptyManagedFields } from './freeze-policy.js';

/** How long a noted object may keep its own empty objects before a pass shares them. */
export const SHARE_AFTER_MS = 1_000;
/** How many noted objects make a pass run at once: bounds the memory their empty objects take. */
export const PENDING_LIMIT = 4_096;

export class DeferredSharing<T extends KubeObject> {
  /** The latest noted version per key: a newer one takes the older one's place, which is then never walked. */
  readonly #pending = new Map<string, T>();
  readonly #clock: Clock;
  /** The object the store holds under a key now. */
  readonly #current: (key: string) => T | undefined;
  #timer: Timer | undefined;

  constructor(clock: Clock, current: (key: string) => T | undefined) {
    this.#clock = clock;
    this.#current = current;
  }

  /** `obj` was just stored under `key`; its empty objects are shared at the next pass. */
  note(key: string, obj: T): void {
    // Caches that drop managedFields (the manager's default) have nothing to share and pay one read.
    if (obj.metadata.managedFields === undefined) return;
    const pending = this.#pending;
    pending.set(key, obj);
    if (pending.size >= PENDING_LIMIT) this.pass();
    else this.#timer ??= this.#clock.setTimer(this.pass, SHARE_AFTER_MS);
  }

  /** Shares the empty objects of every noted object the store still holds; nothing is pending after. */
  readonly pass = (): void => {
    this.#timer?.cancel();
    this.#timer = undefined;
    const current = this.#current;
    for (const [key, obj] of this.#pending) if (current(key) === obj) shareEmptyManagedFields(obj);
    this.#pending.clear();
  };

  /** Drops what is pending and the timer: the cache is stopping. */
  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#pending.clear();
  }
}
