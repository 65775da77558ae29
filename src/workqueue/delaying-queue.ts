/**
 * DelayingQueue: client-go's delaying queue, a `Queue` with `addAfter`. Items not yet due wait in a
 * min-heap ordered by ready time (ties in request order) plus a map from key to heap entry, and ONE
 * clock timer is armed for the earliest entry, so a million waiting items cost one timer.
 *
 * Invariants: a key waits at most once, at the earliest time anyone asked for; the timer, when
 * armed, is due exactly at the heap head's ready time; a plain `add` does not touch a waiting entry
 * (the item is processed now and once more when its time comes); shutdown drops waiting items.
 */
import { InvalidOptionError } from '../meta/index.js';
import { HeadTimer } from './head-timer.js';
import { Heap } from './heap.js';
import type { DelayingInterface, QueueOptions } from './interfaces.js';
import { Queue } from './queue.js';

interface WaitingEntry<T> {
  key: string;
  item: T;
  readyAt: number;
  /** Request order, so that equal ready times come out first-requested first. */
  seq: number;
  heapIndex: number;
}

const earlier = <T>(a: WaitingEntry<T>, b: WaitingEntry<T>): boolean => a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);

/**
 * A `Queue` whose items can be added after a delay (client-go's `NewTypedDelayingQueue`).
 * Client-go's 10 s heartbeat is not needed: the one timer is re-armed whenever the earliest entry
 * changes, and a timer that fires early (real clocks may) re-arms for the remainder.
 */
export class DelayingQueue<T> extends Queue<T> implements DelayingInterface<T> {
  readonly #waiting = new Heap<WaitingEntry<T>>(earlier);
  readonly #waitingByKey = new Map<string, WaitingEntry<T>>();
  #seq = 0;
  readonly #timer: HeadTimer;

  constructor(options: QueueOptions<T> = {}) {
    super(options);
    this.#timer = new HeadTimer({ clock: this.clock, onDue: () => this.#onTimer() });
  }

  /**
   * Adds `item` once `delayMs` milliseconds have passed (at once when `delayMs <= 0`). If the item is
   * already waiting, the earlier of the two ready times is kept. Counts a retry in the metrics on every
   * call, as client-go does. Ignored once the queue is shutting down.
   */
  addAfter(item: T, delayMs: number): void {
    if (!Number.isFinite(delayMs)) throw new InvalidOptionError('delayMs', `must be a finite number of milliseconds, got ${delayMs}`);
    if (this.shuttingDown()) return;
    this.metrics?.retry();
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const key = this.keyOf(item);
    const readyAt = this.clock.now() + delayMs;
    const existing = this.#waitingByKey.get(key);
    if (existing) {
      if (readyAt >= existing.readyAt) return;
      existing.readyAt = readyAt;
      this.#waiting.update(existing);
    } else {
      const entry: WaitingEntry<T> = { key, item, readyAt, seq: this.#seq++, heapIndex: -1 };
      this.#waitingByKey.set(key, entry);
      this.#waiting.push(entry);
    }
    this.#armTimer();
  }

  override shutDown(): void {
    this.#dropWaiting();
    super.shutDown();
  }

  override shutDownWithDrain(): Promise<void> {
    this.#dropWaiting();
    return super.shutDownWithDrain();
  }

  /** Number of items waiting for their delay to pass (not part of `len()`). */
  waitingLen(): number {
    return this.#waiting.size;
  }

  #onTimer(): void {
    const now = this.clock.now();
    for (let head = this.#waiting.peek(); head && head.readyAt <= now; head = this.#waiting.peek()) {
      this.#waiting.pop();
      this.#waitingByKey.delete(head.key);
      this.add(head.item);
    }
    this.#armTimer();
  }

  #armTimer(): void {
    this.#timer.arm(this.#waiting.peek()?.readyAt ?? Infinity);
  }

  #dropWaiting(): void {
    this.#timer.cancel();
    this.#waiting.clear();
    this.#waitingByKey.clear();
  }
}
