/**
 * Event recording: `events.k8s.io/v1` Events about objects, written in the background so that
 * recording never blocks or fails a reconcile (write errors are logged). Repeats are aggregated as in
 * client-go's events library: the same regarding object, type, reason, action, note and reporter
 * within six minutes of the last occurrence become one Event whose `series.count` is bumped with a
 * merge patch instead of a new Event. Writes for one series are serialised and coalesced — while a
 * write is in flight further repeats only raise the count that the next write sends.
 *
 * Invariant: `event()` returns at once and never throws; `flush()` resolves when every write started
 * so far has finished (the manager flushes on shutdown); at most 4096 series are remembered.
 */
import { hostname } from 'node:os';
import { EventResource, noopLogger, type Clock, type KubeObject, type Logger, type ObjectOf } from '../../meta/index.js';
import { formatMicroTime } from '../../meta/internal.js';
import { isNotFound, type Client } from '../../client/index.js';

type EventsV1 = ObjectOf<typeof EventResource>;
/** Whether an Event reports something normal or a warning. */
export type EventType = 'Normal' | 'Warning';

/** Records Events about objects in the background, aggregating repeats, so reconciles never wait for them. */
export interface EventRecorder {
  /**
   * Records that `reason` happened to `regarding` (`message` becomes the Event's note, at most 1 kB).
   * `action` (default: the reason) says what was done; `related` names a second object involved.
   */
  event(regarding: KubeObject, type: EventType, reason: string, message: string, options?: { action?: string; related?: KubeObject }): void;
}

/** client-go's window: a repeat later than this after the last occurrence starts a new Event. */
const SERIES_WINDOW_MS = 6 * 60 * 1000;
const MAX_NOTE_BYTES = 1024;
const MAX_INSTANCE_CHARS = 128;
/** Series remembered for aggregation (client-go's LRU size); the least recently seen is forgotten first. */
const MAX_SERIES = 4096;

interface Series {
  namespace: string;
  /** Set once the Event exists on the server. */
  name: string | undefined;
  template: EventsV1;
  count: number;
  lastObservedMs: number;
  busy: boolean;
  dirty: boolean;
}

function reference(o: KubeObject): NonNullable<EventsV1['regarding']> {
  const m = o.metadata;
  // Absent fields stay absent (not `undefined`), as in the JSON the server would send.
  return {
    ...(o.apiVersion === undefined ? {} : { apiVersion: o.apiVersion }),
    ...(o.kind === undefined ? {} : { kind: o.kind }),
    ...(m.name === undefined ? {} : { name: m.name }),
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(m.uid === undefined ? {} : { uid: m.uid }),
    ...(m.resourceVersion === undefined ? {} : { resourceVersion: m.resourceVersion }),
  };
}

function truncateNote(note: string): string {
  const buf = Buffer.from(note, 'utf8');
  return buf.length <= MAX_NOTE_BYTES
    ? note
    : buf
        .subarray(0, MAX_NOTE_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

/** Owns the series cache and the background writes of every recorder of one manager. */
export class EventBroadcaster {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #instanceSuffix: string;
  readonly #series = new Map<string, Series>();
  readonly #writes = new Set<Promise<void>>();

  constructor(options: { client: Client; clock: Clock; logger?: Logger; host?: string }) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#log = options.logger ?? noopLogger;
    this.#instanceSuffix = options.host ?? hostname();
  }

  /** A recorder whose Events name `name` as `reportingController`. */
  recorder(name: string): EventRecorder {
    const instance = `${name}-${this.#instanceSuffix}`.slice(0, MAX_INSTANCE_CHARS);
    return Object.freeze({
      event: (regarding, type, reason, message, options) => {
        try {
          this.#record(name, instance, regarding, type, reason, message, options ?? {});
        } catch (err) {
          this.#log.error({ reason, err }, 'failed to record event');
        }
      },
    } satisfies EventRecorder);
  }

  /** Resolves when every write started so far (and any it chained) has finished. */
  async flush(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  #record(
    controller: string,
    instance: string,
    regarding: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    options: { action?: string; related?: KubeObject },
  ): void {
    const now = this.#clock.now();
    const note = truncateNote(message);
    const action = options.action ?? reason;
    const ref = reference(regarding);
    const related = options.related ? reference(options.related) : undefined;
    this.#log.debug({ controller, kind: ref.kind, namespace: ref.namespace, name: ref.name, type, reason, note }, 'event');
    const key = JSON.stringify([
      controller,
      instance,
      ref.kind,
      ref.namespace,
      ref.name,
      ref.uid,
      type,
      reason,
      action,
      note,
      related?.kind,
      related?.namespace,
      related?.name,
    ]);
    const existing = this.#series.get(key);
    if (existing && now - existing.lastObservedMs < SERIES_WINDOW_MS) {
      existing.count++;
      existing.lastObservedMs = now;
      // Re-insert so that Map order is least-recently-seen first.
      this.#series.delete(key);
      this.#series.set(key, existing);
      this.#schedule(existing);
      return;
    }
    this.#series.delete(key);
    if (this.#series.size >= MAX_SERIES) this.#series.delete(this.#series.keys().next().value!);
    // Events about cluster-scoped objects (no namespace) live in `default`, as client-go puts them.
    const namespace = ref.namespace ? ref.namespace : 'default';
    const series: Series = {
      namespace,
      name: undefined,
      template: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { namespace },
        eventTime: formatMicroTime(now),
        reportingController: controller,
        reportingInstance: instance,
        action,
        reason,
        regarding: ref,
        ...(related ? { related } : {}),
        note,
        type,
      },
      count: 1,
      lastObservedMs: now,
      busy: false,
      dirty: false,
    };
    this.#series.set(key, series);
    this.#schedule(series);
  }

  #schedule(s: Series): void {
    if (s.busy) {
      s.dirty = true;
      return;
    }
    s.busy = true;
    const write = (async () => {
      try {
        do {
          s.dirty = false;
          await this.#writeOnce(s);
        } while (s.dirty);
      } finally {
        s.busy = false;
      }
    })();
    this.#writes.add(write);
    void write.finally(() => this.#writes.delete(write));
  }

  async #writeOnce(s: Series): Promise<void> {
    const series = s.count > 1 ? { count: s.count, lastObservedTime: formatMicroTime(s.lastObservedMs) } : undefined;
    try {
      if (s.name !== undefined && series) {
        try {
          await this.#client.patch(EventResource, { namespace: s.namespace, name: s.name }, { series }, 'merge');
          return;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          // The Event expired on the server (events have a TTL): start it again.
        }
      }
      const name = `${s.template.regarding?.name ?? 'event'}.${(BigInt(this.#clock.now()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1e6))).toString(16)}`;
      const created = await this.#client.create(EventResource, {
        ...s.template,
        metadata: { namespace: s.namespace, name },
        ...(series ? { series } : {}),
      });
      s.name = created.metadata.name;
    } catch (err) {
      this.#log.error({ reason: s.template.reason, regarding: s.template.regarding?.name, err }, 'failed to write event');
    }
  }
}
