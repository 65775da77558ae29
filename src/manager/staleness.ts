/**
 * Informer staleness as a signal. A watch can stop delivering without failing (a proxy that keeps the
 * connection open but forwards nothing, a server that stopped sending to one client): the informer
 * then serves an old world as if it were the current one. This runnable measures, per cached kind:
 *
 * - the age of the newest event or bookmark: the time since the informer's resourceVersion last moved
 *   (sampled every `sampleMs`);
 * - staleness: the time since the last moment the cache is KNOWN to have been current. Every
 *   `consistentReadMs` (≥ 5 s) it makes one cheap consistent read, a LIST with `limit=1`, and notes the
 *   collection's resourceVersion R together with the time t the request was sent. Once the informer's
 *   resourceVersion reaches R, the cache holds everything the server held at t, so it was current at
 *   t. Staleness is `now − t` for the latest such t.
 *
 * A healthy informer on an idle or busy cluster is confirmed every read (its staleness stays under
 * `consistentReadMs` plus a read's latency); a watch frozen at T is confirmed no later than T, so its
 * staleness passes `staleAfterMs` (10 s) no later than T + 10 s, whatever the timing of the reads.
 * Invariant: only evidence moves the confirmation forward; an informer that cannot be read against the
 * server (the read fails) only gets staler. resourceVersions are compared as integers when both are
 * (every etcd-backed server hands out its revision); otherwise only equality counts as caught up.
 */
import { type Clock, type KubeObject, type Logger, type ResourceDescriptor } from '../meta/index.js';
import type { Client } from '../client/index.js';
import type { SharedIndexInformer } from '../cache/index.js';

/** What the monitor reads: the kinds the cache holds, and each one's informer. */
export interface StalenessSource {
  resources(): ResourceDescriptor[];
  informerFor(resource: ResourceDescriptor): Pick<SharedIndexInformer<KubeObject>, 'hasSynced' | 'lastSyncResourceVersion'>;
}

/** Options of the staleness monitor. */
export interface InformerStalenessOptions {
  source: StalenessSource;
  /** Reads the collection's current resourceVersion (one LIST with limit=1). */
  reader: Pick<Client, 'list'>;
  /** A namespace to list a namespaced kind in, when the cache watches only some ('' = all). */
  namespaceOf(resource: ResourceDescriptor): string;
  clock: Clock;
  logger: Logger;
  consistentReadMs: number;
  sampleMs: number;
  staleAfterMs: number;
}

/** What the monitor knows of one kind. */
export interface StalenessReport {
  resource: string;
  /** Time since the cache was last known to hold everything the server held (undefined before it synced). */
  stalenessMs: number | undefined;
  /** Time since the informer's resourceVersion last moved (an event, a bookmark or a relist). */
  newestEventAgeMs: number | undefined;
  stale: boolean;
  cacheResourceVersion: string;
  /** The newest collection resourceVersion a consistent read returned. */
  serverResourceVersion: string | undefined;
}

interface KindState {
  resource: ResourceDescriptor;
  /** The last informer resourceVersion seen, and when it changed. */
  rv: string;
  rvChangedAt: number;
  /** When the cache was last known current; undefined until its first sync. */
  currentAt: number | undefined;
  /** Consistent reads not yet caught up with, oldest first: (sent at, resourceVersion). */
  pending: { at: number; rv: string }[];
  serverRv: string | undefined;
  reading: boolean;
}

const INTEGER = /^[0-9]+$/;

/** Whether a cache at `cache` holds everything a server at `server` held. */
function caughtUp(cache: string, server: string): boolean {
  if (cache === server) return true;
  return INTEGER.test(cache) && INTEGER.test(server) && BigInt(cache) >= BigInt(server);
}

/** Measures how stale each cached kind is; see the file comment. */
export class InformerStaleness {
  readonly #o: InformerStalenessOptions;
  readonly #kinds = new Map<string, KindState>();

  constructor(options: InformerStalenessOptions) {
    this.#o = options;
  }

  /** Samples and reads until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    const { clock, sampleMs, consistentReadMs } = this.#o;
    let sinceRead = Infinity;
    while (!signal.aborted) {
      this.#sample();
      if (sinceRead >= consistentReadMs) {
        sinceRead = 0;
        for (const k of this.#kinds.values()) if (k.currentAt !== undefined && !k.reading) void this.#read(k, signal);
      }
      try {
        await clock.sleep(sampleMs, { signal });
      } catch {
        return;
      }
      sinceRead += sampleMs;
    }
  }

  /** The report of every kind the cache holds. */
  reports(): StalenessReport[] {
    this.#sample();
    return [...this.#kinds.values()].map((k) => this.#report(k));
  }

  /** The report of one kind, or undefined when the cache does not hold it. */
  report(resource: ResourceDescriptor): StalenessReport | undefined {
    this.#sample();
    const k = this.#kinds.get(keyOf(resource));
    return k && this.#report(k);
  }

  #report(k: KindState): StalenessReport {
    const now = this.#o.clock.monotonicMs();
    const stalenessMs = k.currentAt === undefined ? undefined : now - k.currentAt;
    return {
      resource: keyOf(k.resource),
      stalenessMs,
      newestEventAgeMs: k.currentAt === undefined ? undefined : now - k.rvChangedAt,
      stale: stalenessMs !== undefined && stalenessMs >= this.#o.staleAfterMs,
      cacheResourceVersion: k.rv,
      serverResourceVersion: k.serverRv,
    };
  }

  /** Notes the informers' resourceVersions now: new kinds, moved versions, reads caught up with. */
  #sample(): void {
    const now = this.#o.clock.monotonicMs();
    for (const resource of this.#o.source.resources()) {
      const key = keyOf(resource);
      const informer = this.#o.source.informerFor(resource);
      let k = this.#kinds.get(key);
      if (!k) {
        k = { resource, rv: '', rvChangedAt: now, currentAt: undefined, pending: [], serverRv: undefined, reading: false };
        this.#kinds.set(key, k);
      }
      const rv = informer.hasSynced() ? informer.lastSyncResourceVersion() : '';
      if (rv === '') {
        // Not synced, or a sharded informer holding no shard: no watch to judge, nothing known.
        k.currentAt = undefined;
        k.pending = [];
        continue;
      }
      if (rv !== k.rv) {
        k.rv = rv;
        k.rvChangedAt = now;
      }
      // A first sync is a full list: the cache was current when it was first seen synced, at the latest.
      k.currentAt ??= now;
      this.#settle(k);
    }
  }

  /** Moves the confirmation forward past every read the cache has caught up with. */
  #settle(k: KindState): void {
    let i = 0;
    for (; i < k.pending.length && caughtUp(k.rv, k.pending[i]!.rv); i++) {
      k.currentAt = Math.max(k.currentAt ?? -Infinity, k.pending[i]!.at);
    }
    if (i > 0) k.pending.splice(0, i);
  }

  async #read(k: KindState, signal: AbortSignal): Promise<void> {
    k.reading = true;
    const sentAt = this.#o.clock.monotonicMs();
    try {
      const list = await this.#o.reader.list(k.resource, { namespace: this.#o.namespaceOf(k.resource), limit: 1, signal });
      const rv = list.metadata?.resourceVersion;
      if (!rv) return;
      k.serverRv = rv;
      k.pending.push({ at: sentAt, rv });
      this.#sample();
    } catch (err) {
      if (!signal.aborted) this.#o.logger.debug({ err, resource: keyOf(k.resource) }, 'staleness read failed');
    } finally {
      k.reading = false;
    }
  }
}

const keyOf = (r: ResourceDescriptor): string => (r.group ? `${r.plural}.${r.group}` : r.plural);
