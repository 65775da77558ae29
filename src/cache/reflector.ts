/**
 * Reflector: keeps a FIFO fed with the state of one collection on the API server, forever. It lists
 * (in pages, or as a streaming list) and then watches from the list's resourceVersion, with bookmarks.
 * This file is the runner: it performs what the current state of the machine in reflector-state.ts
 * asks for and reports the outcome back; it makes no policy decision of its own.
 *
 * Invariants: `run()` never returns before its signal aborts (every error is classified, counted,
 * logged and retried); every wait goes through the injected `Clock`; each successful (re)population
 * reaches the FIFO as exactly one committed replace (its objects handed over as each page or event
 * arrives, so no page outlives its parse), and watch events reach it in the order the server sent
 * them; a store error on one event (e.g. an object without a name) is logged and skips that event only.
 * A silent watch is ended by the watch stream's own inactivity watchdog (the reflector asks for it on
 * every watch it opens); the `NetworkError` that ends it is a cut, and the watch resumes from its RV.
 */
import assert from 'node:assert/strict';
import { StatusError, type WatchEvent, type WatchStream } from '../client/index.js';
import { noopLogger, type Clock, type KubeObject, type Logger, type Timer } from '../meta/index.js';
import { INITIAL_EVENTS_END_ANNOTATION, requireDuration, requireInt } from '../meta/internal.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { WatchInterruptedError } from './errors.js';
import type { ReplaceBuilder } from './fifo.js';
import type { ListerWatcher } from './list-watcher.js';
import { noopCacheMetricsProvider, type CacheMetricsProvider, type CounterMetric } from './metrics.js';
import {
  classifyFailure,
  initialMemory,
  transition,
  type ReflectorInput,
  type ReflectorMemory,
  type ReflectorState,
} from './reflector-state.js';
import type { ReflectorStatus, WatchErrorReason } from './types.js';

/** Where the reflector writes: the FIFO. */
export interface ReflectorStore<T extends KubeObject> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  /** A relist, received object by object; only `commit` makes it reach the store. */
  startReplace(): ReplaceBuilder<T>;
  bookmark(resourceVersion: string): void;
  /** `undefined` when there is room for more, else a promise that resolves when there is (back-pressure). */
  waitForRoom(): Promise<void> | undefined;
}

/** What a `Reflector` mirrors (`listerWatcher`) into what (`store`), with the clock every wait goes through and the tuning of lists, watches and retries. */
export interface ReflectorOptions<T extends KubeObject> {
  listerWatcher: ListerWatcher<T>;
  store: ReflectorStore<T>;
  clock: Clock;
  /** Names this reflector in logs and metrics; default the ListerWatcher's description. */
  name?: string;
  logger?: Logger | undefined;
  metrics?: CacheMetricsProvider;
  /** Page size of lists. Default 500, and (as client-go) unpaginated for lists at an exact RV. */
  pageSize?: number;
  /** Populate with a streaming list (`sendInitialEvents`); falls back to LIST if the server refuses. Default false. */
  watchList?: boolean;
  backoff?: Omit<BackoffOptions, 'clock'>;
  /** Watches ask the server to end after a random time in [min, 2 × min]; default min 5 min. */
  minWatchTimeoutMs?: number;
  /**
   * A watch (or streaming list) on which no byte arrived for this long is presumed dead; default
   * 11 min. The client's watch stream keeps this watchdog: a half-open socket is a transport fact.
   */
  inactivityTimeoutMs?: number;
  /** Uniform [0, 1) source for watch timeouts (and backoff jitter unless given there); default Math.random. */
  random?: () => number;
}

/** The values a `Reflector` uses for the tuning options left out (client-go's, where it has one), frozen. */
export const REFLECTOR_DEFAULTS = Object.freeze({
  pageSize: 500,
  watchList: false,
  minWatchTimeoutMs: 300_000,
  inactivityTimeoutMs: 660_000,
  veryShortWatchMs: 1_000,
  initialEventsWarnMs: 10_000,
});

interface OpenWatch<T extends KubeObject> {
  stream: WatchStream<T>;
  iterator: AsyncIterator<WatchEvent<T>>;
}

type Input<T extends KubeObject> = ReflectorInput<OpenWatch<T>>;
type State<T extends KubeObject> = ReflectorState<OpenWatch<T>>;

const REASONS: readonly WatchErrorReason[] = ['gone', 'tooManyRequests', 'network', 'other'];

export class Reflector<T extends KubeObject = KubeObject> {
  readonly name: string;
  readonly #lw: ListerWatcher<T>;
  readonly #store: ReflectorStore<T>;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** Delays before relisting: client-go's sequence, reset only by two quiet minutes. */
  readonly #relistBackoff: Backoff;
  /** Delays between failed attempts to establish a watch: restarts once a watch is established. */
  readonly #rewatchBackoff: Backoff;
  readonly #random: () => number;
  readonly #explicitPageSize: number | undefined;
  readonly #minWatchTimeoutMs: number;
  readonly #inactivityTimeoutMs: number;
  readonly #connects: CounterMetric;
  readonly #errorMetrics: Record<WatchErrorReason, CounterMetric>;

  #state: State<T> = { kind: 'idle' };
  #memory: ReflectorMemory;
  /** The last RV seen on the current watch; ahead of `#memory` while a watch is running. */
  #liveResourceVersion = '';
  #watchesOpened = 0;
  #populations = 0;
  #errors: Record<WatchErrorReason, number> = { gone: 0, tooManyRequests: 0, network: 0, other: 0 };
  #lastError: ReflectorStatus['lastError'];
  #retryAtMs: number | undefined;
  #running = false;

  constructor(o: ReflectorOptions<T>) {
    this.#lw = o.listerWatcher;
    this.#store = o.store;
    this.#clock = o.clock;
    this.name = o.name ?? o.listerWatcher.description;
    this.#log = (o.logger ?? noopLogger).child({ reflector: this.name });
    this.#random = o.random ?? Math.random;
    this.#relistBackoff = new Backoff({ random: this.#random, ...o.backoff, clock: o.clock });
    this.#rewatchBackoff = new Backoff({ random: this.#random, ...o.backoff, clock: o.clock });
    this.#explicitPageSize = o.pageSize;
    if (o.pageSize !== undefined) requireInt('pageSize', o.pageSize, { min: 1 });
    this.#minWatchTimeoutMs = Math.max(o.minWatchTimeoutMs ?? REFLECTOR_DEFAULTS.minWatchTimeoutMs, REFLECTOR_DEFAULTS.minWatchTimeoutMs);
    this.#inactivityTimeoutMs = o.inactivityTimeoutMs ?? REFLECTOR_DEFAULTS.inactivityTimeoutMs;
    requireDuration('inactivityTimeoutMs', this.#inactivityTimeoutMs);
    this.#memory = initialMemory(o.watchList ?? REFLECTOR_DEFAULTS.watchList);
    const metrics = o.metrics ?? noopCacheMetricsProvider;
    this.#connects = metrics.newWatchConnectsMetric(this.name);
    this.#errorMetrics = Object.fromEntries(REASONS.map((r) => [r, metrics.newWatchErrorsMetric(this.name, r)])) as Record<
      WatchErrorReason,
      CounterMetric
    >;
  }

  /** The resourceVersion the store is synced to: the last list's, then the last watch event's or bookmark's. */
  lastSyncResourceVersion(): string {
    return this.#state.kind === 'watching' ? this.#liveResourceVersion : this.#memory.lastSyncResourceVersion;
  }

  status(): ReflectorStatus {
    const s: ReflectorStatus = {
      phase: this.#state.kind,
      lastSyncResourceVersion: this.lastSyncResourceVersion(),
      reconnects: Math.max(0, this.#watchesOpened - 1),
      relists: Math.max(0, this.#populations - 1),
      errors: { ...this.#errors },
    };
    if (this.#lastError) s.lastError = { ...this.#lastError };
    if (this.#state.kind === 'backoff' && this.#retryAtMs !== undefined) s.retryAtMs = this.#retryAtMs;
    return s;
  }

  /** Lists and watches until `signal` aborts; never rejects. A second concurrent call is an error. */
  async run(signal: AbortSignal): Promise<void> {
    assert(!this.#running, `reflector ${this.name} is already running: one reflector feeds one store`);
    this.#running = true;
    let input: Input<T> = { kind: 'start' };
    try {
      for (;;) {
        [this.#state, this.#memory] = transition(this.#state, input, this.#memory);
        if (this.#state.kind === 'stopped') return;
        input = signal.aborted ? { kind: 'stop' } : await this.#perform(this.#state, signal);
      }
    } finally {
      this.#state = { kind: 'stopped' };
      this.#running = false;
    }
  }

  #perform(s: State<T>, signal: AbortSignal): Promise<Input<T>> {
    switch (s.kind) {
      case 'listing':
        return this.#list(s.resourceVersion, signal);
      case 'streaming':
        return this.#streamingList(s.resourceVersion, signal);
      case 'watching':
        return this.#watch(s.resourceVersion, s.handover, signal);
      case 'backoff':
        return this.#wait(s.then === 'watch' ? this.#rewatchBackoff : this.#relistBackoff, s.retryAfterMs, signal);
      case 'idle':
      case 'stopped':
        assert.fail(`reflector: nothing to perform in state ${s.kind} (run() never performs it)`);
    }
  }

  // ---- LIST --------------------------------------------------------------------------------------

  async #list(resourceVersion: string, signal: AbortSignal): Promise<Input<T>> {
    const limit = this.#pageSizeFor(resourceVersion);
    const relist = this.#store.startReplace();
    let listRV = '';
    let paginated = false;
    let cont: string | undefined;
    try {
      do {
        // A continue token carries its own snapshot; the API rejects a resourceVersion beside it.
        const page = await this.#lw.list(cont ? { limit, continue: cont, signal } : { limit, resourceVersion, signal });
        for (const item of page.items) relist.add(this.#withKind(item));
        listRV = page.metadata.resourceVersion ?? '';
        cont = page.metadata.continue ? page.metadata.continue : undefined;
        if (cont) paginated = true;
      } while (cont);
      relist.commit(listRV);
    } catch (error) {
      return this.#failed(error, signal, 'list');
    }
    this.#populated('list', listRV, relist.size);
    return { kind: 'listed', resourceVersion: listRV, paginated };
  }

  #pageSizeFor(resourceVersion: string): number | undefined {
    if (this.#explicitPageSize !== undefined) return this.#explicitPageSize;
    if (this.#memory.paginatedResult) return REFLECTOR_DEFAULTS.pageSize;
    // An exact-RV list can be served whole from the server's watch cache; paging would bypass it.
    if (resourceVersion !== '' && resourceVersion !== '0') return undefined;
    return REFLECTOR_DEFAULTS.pageSize;
  }

  /** List items come without apiVersion/kind; handlers should see the same shape as from a watch. */
  #withKind(item: T): T {
    if (item.kind === undefined) {
      item.apiVersion = this.#lw.resource.apiVersion;
      item.kind = this.#lw.resource.kind;
    }
    return item;
  }

  // ---- streaming list ----------------------------------------------------------------------------

  async #streamingList(resourceVersion: string, signal: AbortSignal): Promise<Input<T>> {
    let open: OpenWatch<T>;
    try {
      open = await this.#openWatch(signal, {
        resourceVersion: resourceVersion === '' ? undefined : resourceVersion,
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
      });
    } catch (error) {
      return this.#failed(error, signal, 'stream');
    }
    const relist = this.#store.startReplace();
    const onAbort = (): void => open.stream.close();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) open.stream.close();
    let warnTimer: Timer | undefined;
    const startedAt = this.#clock.now();
    const scheduleWarning = (): void => {
      warnTimer = this.#clock.setTimer(() => {
        this.#log.warn({ objects: relist.size, waitedMs: this.#clock.now() - startedAt }, 'initial-events-end bookmark not received yet');
        scheduleWarning();
      }, REFLECTOR_DEFAULTS.initialEventsWarnMs);
    };
    scheduleWarning();
    let handedOver = false;
    try {
      for (;;) {
        const r = await open.iterator.next();
        if (r.done) {
          if (signal.aborted) return { kind: 'stop' };
          throw new WatchInterruptedError('incomplete', `streaming list of ${this.name} ended before the initial-events-end bookmark`);
        }
        const ev = r.value;
        switch (ev.type) {
          case 'ADDED':
          case 'MODIFIED':
          case 'DELETED':
            this.#receive(relist, ev.type, ev.object);
            break;
          case 'BOOKMARK': {
            if (ev.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== 'true') break;
            const rv = ev.object.metadata.resourceVersion ?? '';
            relist.commit(rv);
            this.#populated('stream', rv, relist.size);
            handedOver = true;
            return { kind: 'streamed', resourceVersion: rv, stream: open };
          }
          case 'ERROR':
            throw new StatusError(ev.object);
        }
      }
    } catch (error) {
      return this.#failed(error, signal, 'stream');
    } finally {
      warnTimer?.cancel();
      signal.removeEventListener('abort', onAbort);
      if (!handedOver) open.stream.close();
    }
  }

  // ---- WATCH -------------------------------------------------------------------------------------

  async #watch(resourceVersion: string, handover: OpenWatch<T> | undefined, signal: AbortSignal): Promise<Input<T>> {
    this.#liveResourceVersion = resourceVersion;
    let open = handover;
    if (!open) {
      try {
        open = await this.#openWatch(signal, { resourceVersion });
      } catch (error) {
        return this.#failed(error, signal, 'watch');
      }
    }
    const { stream, iterator } = open;
    const store = this.#store;
    const hasRoom = (): boolean => store.waitForRoom() === undefined;
    const onAbort = (): void => stream.close();
    signal.addEventListener('abort', onAbort, { once: true });
    // An abort while the watch was being opened fired no listener: a stream that does not watch the
    // signal itself would otherwise keep the loop waiting for its first event.
    if (signal.aborted) stream.close();

    // No watchdog here: the stream itself fails with a NetworkError once no byte arrived for
    // `inactivityTimeoutMs` (asked for when it was opened), and that failure counts as a cut.
    let events = 0;
    const startedAt = this.#clock.now();
    const established = (): boolean => this.#established(handover !== undefined, events, startedAt);
    try {
      for (;;) {
        const room = store.waitForRoom();
        if (room) await room;
        const r = await iterator.next();
        if (r.done) break;
        events++;
        this.#apply(r.value);
        // The rest of the chunk that event came in is decoded already: take it without a promise each.
        if (stream.drainDecoded) events += stream.drainDecoded(this.#applyEvent, hasRoom);
      }
    } catch (error) {
      return this.#failed(error, signal, 'watch', this.#liveResourceVersion, established());
    } finally {
      signal.removeEventListener('abort', onAbort);
      stream.close();
    }
    if (signal.aborted) return { kind: 'stop' };
    if (!established()) {
      const error = new WatchInterruptedError('tooShort', `watch of ${this.name} closed at once without any event`);
      return this.#failed(error, signal, 'watch', this.#liveResourceVersion, false);
    }
    this.#log.debug({ resourceVersion: this.#liveResourceVersion, events }, 'watch closed; watching again from the last resourceVersion');
    return { kind: 'watchEnded', resourceVersion: this.#liveResourceVersion };
  }

  /** Writes one watch event to the store; a store error skips the event, an ERROR event throws. */
  #apply(ev: WatchEvent<T>): void {
    const obj = ev.object;
    try {
      switch (ev.type) {
        case 'MODIFIED':
          this.#store.update(obj as T);
          break;
        case 'ADDED':
          this.#store.add(obj as T);
          break;
        case 'DELETED':
          this.#store.delete(obj as T);
          break;
        case 'BOOKMARK':
          this.#store.bookmark(obj.metadata?.resourceVersion ?? this.#liveResourceVersion);
          break;
        case 'ERROR':
          throw new StatusError(ev.object);
      }
    } catch (error) {
      if (ev.type === 'ERROR') throw error;
      this.#log.warn({ type: ev.type, error }, 'watch event skipped: the store rejected it');
    }
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.#liveResourceVersion = rv;
  }

  readonly #applyEvent = (ev: WatchEvent<T>): void => this.#apply(ev);

  /**
   * Whether a watch proved itself: handed over by a streaming list, delivered an event, or stayed open
   * past the very-short limit. One that did ends a run of failures to establish a watch, so the next
   * run of them starts again at the shortest delay.
   */
  #established(handedOver: boolean, events: number, startedAt: number): boolean {
    const established = handedOver || events > 0 || this.#clock.now() - startedAt >= REFLECTOR_DEFAULTS.veryShortWatchMs;
    if (established) this.#rewatchBackoff.reset();
    return established;
  }

  async #openWatch(
    signal: AbortSignal,
    extra: { resourceVersion?: string | undefined; resourceVersionMatch?: 'NotOlderThan'; sendInitialEvents?: boolean },
  ): Promise<OpenWatch<T>> {
    const min = this.#minWatchTimeoutMs;
    const timeoutSeconds = Math.floor((min + this.#random() * min) / 1000);
    const stream = await this.#lw.watch({
      ...extra,
      allowWatchBookmarks: true,
      timeoutSeconds,
      inactivityTimeoutMs: this.#inactivityTimeoutMs,
      signal,
    });
    this.#watchesOpened++;
    this.#connects.inc();
    if (this.#watchesOpened > 1)
      this.#log.debug({ resourceVersion: extra.resourceVersion, reconnects: this.#watchesOpened - 1 }, 'watch reconnected');
    return { stream, iterator: stream[Symbol.asyncIterator]() };
  }

  // ---- waiting and bookkeeping -------------------------------------------------------------------

  async #wait(backoff: Backoff, retryAfterMs: number, signal: AbortSignal): Promise<Input<T>> {
    const delay = Math.max(backoff.next(), retryAfterMs);
    this.#retryAtMs = this.#clock.now() + delay;
    try {
      await this.#clock.sleep(delay, { signal });
      return { kind: 'waited' };
    } catch {
      return { kind: 'stop' };
    } finally {
      this.#retryAtMs = undefined;
    }
  }

  #failed(
    error: unknown,
    signal: AbortSignal,
    during: 'list' | 'stream' | 'watch',
    resourceVersion?: string,
    established?: boolean,
  ): Input<T> {
    if (signal.aborted) return { kind: 'stop' };
    const { failure, reason, retryAfterMs } = classifyFailure(error);
    this.#errors[reason]++;
    this.#errorMetrics[reason].inc();
    const message = error instanceof Error ? error.message : String(error);
    this.#lastError = { reason, message, atMs: this.#clock.now() };
    const fields = { during, reason, error, resourceVersion: resourceVersion ?? this.#memory.lastSyncResourceVersion };
    // As client-go: an expired resourceVersion is routine, and so is a cut that is resumed at once;
    // anything else deserves a warning.
    if (reason === 'gone') this.#log.debug(fields, 'resourceVersion expired; relisting');
    else if (failure === 'disconnected' && established) this.#log.info(fields, 'watch cut; resuming from the last resourceVersion');
    else this.#log.warn(fields, `${during} failed; retrying`);
    if (resourceVersion === undefined) return { kind: 'failed', failure, retryAfterMs };
    return { kind: 'failed', failure, retryAfterMs, resourceVersion, established: established ?? false };
  }

  #populated(how: 'list' | 'stream', resourceVersion: string, objects: number): void {
    this.#populations++;
    this.#log.debug({ how, resourceVersion, objects, relist: this.#populations > 1 }, 'store populated');
  }

  /** One event of a streaming list into the relist; an object the store cannot key (no name) is skipped. */
  #receive(relist: ReplaceBuilder<T>, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void {
    try {
      if (type === 'DELETED') relist.delete(obj);
      else relist.add(obj);
    } catch (error) {
      this.#log.warn({ type, error }, 'watch event skipped: the store rejected it');
    }
  }
}
