/**
 * The watch hub: fans every stored event out to the watchers of its resource. Each event is rendered
 * once per distinct encoding (memoised on the event), however many watchers receive it. Each watcher
 * applies its own filter, so an object entering its selector arrives as ADDED and one leaving it as
 * DELETED (previous state, the event's revision), exactly like the watch cache.
 *
 * A watcher never blocks the writer or other watchers: lines go to its sink immediately while the
 * sink keeps up, and into a bounded per-watcher queue while it does not; a watcher whose queue
 * overflows is closed, so its client re-lists. Bookmarks (periodic, and one 2 s before a
 * `timeoutSeconds` deadline, as the real watch cache sends) and `timeoutSeconds` are timers on the
 * same clock; a closed watcher holds none.
 *
 * Lines an encoder can only render later (an event a conversion webhook must convert first) keep
 * their place: every line after one still pending waits for it, and one that fails becomes the
 * encoder's ERROR line, which ends the stream.
 *
 * Invariant: a watcher receives live events strictly after the revision it started from, in revision
 * order, and nothing after it was closed.
 */
import type { Clock, KubeObject, Timer } from '../meta/index.js';
import type { ResponseStream, StreamSink } from './wire/index.js';
import type { Store, StoredEvent } from './storage/index.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** How long before a `timeoutSeconds` deadline the last bookmark goes out (the real server's 2 s). */
const DEADLINE_BOOKMARK_MS = 2_000;

/** How one watcher renders events. Watchers with equal `key` share rendered lines. */
export interface WatchEncoder {
  readonly key: string;
  /**
   * One event line including the trailing newline, or its promise when the object must be converted
   * first. `first` is true for the first object event this watcher sends.
   */
  render(type: WatchEventType, obj: KubeObject, first: boolean): string | Promise<string>;
  /** The ERROR line that ends the stream when a promised line fails. */
  failure?(err: unknown): string;
  /** Whether `render` output depends on `first` (Table column definitions); such first lines are not memoised. */
  readonly firstDiffers: boolean;
  /** A BOOKMARK line at `rv`, optionally with annotations (the initial-events-end marker). */
  bookmark(rv: number, annotations?: Record<string, string>): string;
}

export interface WatcherSpec {
  resource: string;
  filter: (obj: KubeObject) => boolean;
  encoder: WatchEncoder;
  allowBookmarks: boolean;
  timeoutMs?: number;
}

export interface WatchHubOptions {
  store: Store;
  clock: Clock;
  bookmarkIntervalMs: number;
  /** Live events queued for a watcher that is not keeping up before it is closed. */
  bufferSize: number;
}

/** One open watch: a `ResponseStream` the adapter drives. */
export class Watcher implements ResponseStream {
  readonly #hub: WatchHub;
  readonly spec: WatcherSpec;
  #sink: StreamSink | undefined;
  #queue: string[] = [];
  #liveQueued = 0;
  #blocked = true;
  #closed = false;
  #sentObject = false;
  /** Lines still being rendered, in order; later lines wait behind them. */
  #rendering: Promise<void> | undefined;
  #renderingCount = 0;
  #failed = false;
  /** Set by `failWith`: end the stream once the queue is flushed. */
  #endAfterFlush = false;
  #timer: Timer | undefined;
  #deadlineBookmark: Timer | undefined;

  constructor(hub: WatchHub, spec: WatcherSpec) {
    this.#hub = hub;
    this.spec = spec;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Renders an object event for this watcher, sharing the rendering through `memo` when possible. */
  renderEvent(type: WatchEventType, obj: KubeObject, memo?: Map<string, string>, variant = ''): string | Promise<string> {
    const enc = this.spec.encoder;
    const first = !this.#sentObject;
    this.#sentObject = true;
    if (!memo || (first && enc.firstDiffers)) return enc.render(type, obj, first);
    const k = `${enc.key}|${type}|${variant}`;
    let line = memo.get(k);
    if (line !== undefined) return line;
    const rendered = enc.render(type, obj, false);
    if (typeof rendered === 'string') memo.set(k, rendered);
    return rendered;
  }

  /** Queues initial lines (synthetic ADDEDs, replayed history, end bookmark); they never count against the buffer. */
  pushInitial(line: string | Promise<string>): void {
    this.#enqueue(line, false);
  }

  pushLive(line: string | Promise<string>): void {
    this.#enqueue(line, true);
  }

  /** A line goes out now unless it, or a line before it, is still being rendered. */
  #enqueue(line: string | Promise<string>, live: boolean): void {
    if (typeof line === 'string' && this.#renderingCount === 0) {
      this.#push(line, live);
      return;
    }
    this.#renderingCount++;
    const before = this.#rendering ?? Promise.resolve();
    this.#rendering = before
      .then(() => line)
      .then(
        (l) => this.#push(l, live),
        (err: unknown) => {
          if (this.#failed || this.#closed) return;
          const failure = this.spec.encoder.failure;
          if (!failure) return this.close();
          this.failWith(failure(err));
          this.#failed = true;
        },
      )
      .finally(() => {
        if (--this.#renderingCount === 0) this.#rendering = undefined;
      });
  }

  #push(line: string, live: boolean): void {
    if (this.#closed || this.#failed) return;
    if (!this.#blocked && this.#sink) {
      if (!this.#sink.write(line)) this.#blocked = true;
      return;
    }
    this.#queue.push(line);
    if (live && ++this.#liveQueued > this.#hub.bufferSize) this.close();
  }

  /** Sends one final line (an ERROR event) and closes. */
  failWith(line: string): void {
    this.#queue.push(line);
    this.#endAfterFlush = true;
    if (this.#sink) this.#flush();
  }

  attach(sink: StreamSink): void {
    if (this.#closed) {
      sink.end();
      return;
    }
    this.#sink = sink;
    this.#flush();
  }

  drained(): void {
    if (!this.#closed) this.#flush();
  }

  #flush(): void {
    const sink = this.#sink!;
    this.#blocked = false;
    let i = 0;
    while (i < this.#queue.length) {
      // A `false` write was still accepted (buffered); stop until the sink drains.
      if (!sink.write(this.#queue[i++]!)) {
        this.#blocked = true;
        break;
      }
    }
    this.#queue = i === this.#queue.length ? [] : this.#queue.slice(i);
    if (this.#queue.length === 0) this.#liveQueued = 0;
    if (this.#endAfterFlush && this.#queue.length === 0) this.close();
  }

  detach(): void {
    this.#sink = undefined;
    this.close();
  }

  /**
   * Arms `timeoutSeconds`, and with bookmarks allowed a bookmark `DEADLINE_BOOKMARK_MS` before it, so
   * the client resumes from a revision as fresh as the server's rather than its last event's.
   */
  startTimeout(clock: Clock, currentRv: () => number): void {
    const ms = this.spec.timeoutMs;
    if (ms === undefined) return;
    this.#timer = clock.setTimer(() => this.close(), ms);
    if (this.spec.allowBookmarks && ms > DEADLINE_BOOKMARK_MS) {
      this.#deadlineBookmark = clock.setTimer(() => this.pushLive(this.spec.encoder.bookmark(currentRv())), ms - DEADLINE_BOOKMARK_MS);
    }
  }

  /** Ends the stream (if attached) and unregisters. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#timer?.cancel();
    this.#deadlineBookmark?.cancel();
    this.#queue = [];
    this.#hub.remove(this);
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.end();
  }
}

export class WatchHub {
  readonly #clock: Clock;
  readonly #store: Store;
  readonly #byResource = new Map<string, Set<Watcher>>();
  readonly #bookmarkIntervalMs: number;
  readonly bufferSize: number;
  #bookmarkWatchers = 0;
  #bookmarkTimer: Timer | undefined;
  #stopped = false;
  readonly #unsubscribe: () => void;

  constructor({ store, clock, bookmarkIntervalMs, bufferSize }: WatchHubOptions) {
    this.#store = store;
    this.#clock = clock;
    this.#bookmarkIntervalMs = bookmarkIntervalMs;
    this.bufferSize = bufferSize;
    this.#unsubscribe = store.subscribe((e) => this.#publish(e));
  }

  /** Creates a watcher; the caller pushes its initial lines, then calls `register` in the same tick. */
  create(spec: WatcherSpec): Watcher {
    return new Watcher(this, spec);
  }

  /** Starts live delivery to `w`; after `stop()` it ends `w` instead, so no stream or timer outlives the hub. */
  register(w: Watcher): void {
    if (this.#stopped) {
      w.close();
      return;
    }
    let set = this.#byResource.get(w.spec.resource);
    if (!set) {
      set = new Set();
      this.#byResource.set(w.spec.resource, set);
    }
    set.add(w);
    w.startTimeout(this.#clock, () => this.#store.currentRv);
    if (w.spec.allowBookmarks && this.#bookmarkWatchers++ === 0) this.#scheduleBookmarks();
  }

  remove(w: Watcher): void {
    const set = this.#byResource.get(w.spec.resource);
    if (!set?.delete(w)) return;
    if (set.size === 0) this.#byResource.delete(w.spec.resource);
    if (w.spec.allowBookmarks && --this.#bookmarkWatchers === 0) {
      this.#bookmarkTimer?.cancel();
      this.#bookmarkTimer = undefined;
    }
  }

  /** Number of open watchers (all resources). */
  get size(): number {
    let n = 0;
    for (const s of this.#byResource.values()) n += s.size;
    return n;
  }

  #scheduleBookmarks(): void {
    this.#bookmarkTimer = this.#clock.setTimer(() => {
      const rv = this.#store.currentRv;
      for (const set of this.#byResource.values()) {
        for (const w of set) if (w.spec.allowBookmarks) w.pushLive(w.spec.encoder.bookmark(rv));
      }
      if (this.#bookmarkWatchers > 0) this.#scheduleBookmarks();
    }, this.#bookmarkIntervalMs);
  }

  /** Delivers one stored event to one watcher, applying selector transitions. */
  static deliver(w: Watcher, e: StoredEvent, live = true): void {
    const f = w.spec.filter;
    const push = (line: string | Promise<string>): void => (live ? w.pushLive(line) : w.pushInitial(line));
    if (e.type === 'ADDED') {
      if (f(e.object)) push(w.renderEvent('ADDED', e.object, e.lines));
      return;
    }
    if (e.type === 'DELETED') {
      if (f(e.prev!)) push(w.renderEvent('DELETED', e.object, e.lines));
      return;
    }
    const now = f(e.object);
    const before = f(e.prev!);
    if (now && before) push(w.renderEvent('MODIFIED', e.object, e.lines));
    else if (now) push(w.renderEvent('ADDED', e.object, e.lines));
    else if (before) {
      const left = { ...e.prev!, metadata: { ...e.prev!.metadata, resourceVersion: String(e.rv) } };
      push(w.renderEvent('DELETED', left, e.lines, 'left'));
    }
  }

  #publish(e: StoredEvent): void {
    const set = this.#byResource.get(e.resource);
    if (!set) return;
    for (const w of set) WatchHub.deliver(w, e);
  }

  /** Closes every watcher of a resource (its CRD went away) or all of them. */
  closeAll(resource?: string): void {
    const sets = resource ? [this.#byResource.get(resource)] : [...this.#byResource.values()];
    for (const set of sets) for (const w of [...(set ?? [])]) w.close();
  }

  stop(): void {
    this.#stopped = true;
    this.closeAll();
    this.#unsubscribe();
    this.#bookmarkTimer?.cancel();
  }
}
