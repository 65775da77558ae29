/**
 * A live watch as an async iterable of typed events. Bytes flow from the socket through the
 * `WatchDecoder` into a small queue; the socket is paused while the consumer lags (backpressure) and
 * an inactivity watchdog on the injected clock fails the stream when no byte arrives for
 * `inactivityTimeoutMs` (a half-open connection never errors by itself).
 *
 * How it ends: the server ends the body → iteration completes; `close()`, `break`/`return()` →
 * iteration completes; the caller's signal aborts → the pending `next()` rejects with its reason;
 * a broken connection or silence → `NetworkError`; a malformed line → `WatchDecodeError`. Queued
 * events are delivered before a failure. Invariant: in every ending the request is destroyed or
 * finished, so the socket is freed, and no listener or timer outlives the stream.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Clock, KubeObject, Timer } from '../meta/index.js';
import { NetworkError } from './errors.js';
import type { StreamingResponse } from './transport.js';
import type { WatchEvent, WatchStream } from './types.js';
import { WatchDecoder } from './watch-decoder.js';

/** Events buffered before the socket is paused. */
const HIGH_WATER = 1024;

/** Options of an `HttpWatchStream`: the clock and how long silence may last, the signal that ends it, and a projection of each object. */
export interface HttpWatchStreamOptions<T extends KubeObject = KubeObject> {
  clock: Clock;
  inactivityTimeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Applied to the object of every ADDED, MODIFIED and DELETED event (metadata-only projection). */
  project?: ((obj: KubeObject) => T) | undefined;
}

interface Waiter<T extends KubeObject> {
  resolve(r: IteratorResult<WatchEvent<T>>): void;
  reject(err: unknown): void;
}

/** A live watch as an async iterable of typed events, with backpressure and an inactivity watchdog. */
export class HttpWatchStream<T extends KubeObject = KubeObject> implements WatchStream<T>, AsyncIterator<WatchEvent<T>> {
  readonly #req: ClientRequest;
  readonly #res: IncomingMessage;
  readonly #method: string;
  readonly #url: string;
  readonly #clock: Clock;
  readonly #signal: AbortSignal | undefined;
  readonly #inactivityMs: number;
  readonly #decoder = new WatchDecoder<T>();
  readonly #emit: (ev: WatchEvent<T>) => void;
  #queue: WatchEvent<T>[] = [];
  #head = 0;
  #waiter: Waiter<T> | undefined;
  #failure: unknown;
  #failed = false;
  #ended = false;
  #paused = false;
  #lastByteAt: number;
  #watchdog: Timer | undefined;

  constructor({ req, res, method, url }: StreamingResponse, { clock, inactivityTimeoutMs, signal, project }: HttpWatchStreamOptions<T>) {
    this.#emit = project
      ? (ev) =>
          this.#push(
            ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED' ? { type: ev.type, object: project(ev.object) } : ev,
          )
      : (ev) => this.#push(ev);
    this.#req = req;
    this.#res = res;
    this.#method = method;
    this.#url = url;
    this.#clock = clock;
    this.#signal = signal;
    this.#inactivityMs = inactivityTimeoutMs ?? 0;
    this.#lastByteAt = clock.now();
    res.on('data', this.#onData);
    res.on('end', this.#onEnd);
    res.on('error', this.#onError);
    res.on('close', this.#onClose);
    req.on('error', this.#onError);
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (this.#inactivityMs > 0) this.#armWatchdog(this.#inactivityMs);
    if (signal?.aborted) this.#onAbort();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return this;
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head++]!;
      this.#taken();
      return Promise.resolve({ value, done: false });
    }
    if (this.#failed) {
      const err = this.#failure;
      this.#failed = false;
      this.#failure = undefined;
      return Promise.reject(err);
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /**
   * Hands the events already decoded and queued to `fn`, in order and synchronously, while `more()`
   * allows; returns how many. A consumer that drains this way after each `next()` takes a whole
   * chunk's events for one promise instead of one each. Never reports the end or a failure: the next
   * `next()` does, after these events, as always.
   */
  drainDecoded(fn: (event: WatchEvent<T>) => void, more: () => boolean): number {
    let n = 0;
    while (this.#head < this.#queue.length && more()) {
      n++;
      fn(this.#queue[this.#head++]!);
    }
    this.#taken();
    return n;
  }

  /** After events were taken from the queue: an emptied queue starts over, and a paused socket resumes once it is half drained. */
  #taken(): void {
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
    if (this.#paused && this.#queue.length - this.#head < HIGH_WATER / 2) {
      this.#paused = false;
      this.#res.resume();
    }
  }

  return(): Promise<IteratorResult<WatchEvent<T>>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Stops the watch and frees the socket; queued events are dropped and iteration completes. */
  close(): void {
    if (this.#ended && this.#queue.length === 0) return;
    this.#queue = [];
    this.#head = 0;
    this.#finish();
    this.#req.destroy();
    this.#settleWaiter();
  }

  #push(ev: WatchEvent<T>): void {
    const w = this.#waiter;
    if (w) {
      this.#waiter = undefined;
      w.resolve({ value: ev, done: false });
      return;
    }
    this.#queue.push(ev);
    if (!this.#paused && this.#queue.length - this.#head >= HIGH_WATER) {
      this.#paused = true;
      this.#res.pause();
    }
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.#ended) return;
    this.#lastByteAt = this.#clock.now();
    try {
      this.#decoder.write(chunk, this.#emit);
    } catch (err) {
      this.#fail(err);
    }
  };

  readonly #onEnd = (): void => {
    if (this.#ended) return;
    try {
      this.#decoder.end();
    } catch (err) {
      this.#fail(err);
      return;
    }
    this.#finish();
    this.#settleWaiter();
  };

  readonly #onError = (err: Error): void => {
    this.#fail(new NetworkError(this.#method, this.#url, err));
  };

  readonly #onClose = (): void => {
    if (!this.#ended) this.#fail(new NetworkError(this.#method, this.#url, new Error('connection closed before the watch ended')));
  };

  readonly #onAbort = (): void => {
    this.#fail(this.#signal!.reason);
  };

  #armWatchdog(ms: number): void {
    this.#watchdog = this.#clock.setTimer(() => {
      const idle = this.#clock.now() - this.#lastByteAt;
      if (idle >= this.#inactivityMs) {
        this.#fail(
          new NetworkError(this.#method, this.#url, new Error(`no data for ${idle} ms (inactivity timeout ${this.#inactivityMs} ms)`)),
        );
      } else {
        this.#armWatchdog(this.#inactivityMs - idle);
      }
    }, ms);
  }

  /** Ends the stream with an error, after the events already queued. */
  #fail(err: unknown): void {
    if (this.#ended) return;
    this.#finish();
    this.#req.destroy();
    this.#failed = true;
    this.#failure = err;
    const w = this.#waiter;
    if (w) {
      this.#waiter = undefined;
      this.#failed = false;
      this.#failure = undefined;
      w.reject(err);
    }
  }

  #finish(): void {
    this.#ended = true;
    this.#watchdog?.cancel();
    this.#watchdog = undefined;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#res.off('data', this.#onData);
    this.#res.off('end', this.#onEnd);
    this.#res.off('close', this.#onClose);
    // Errors from destroying the request after we stopped listening are expected; keep one no-op handler.
    this.#res.off('error', this.#onError);
    this.#req.off('error', this.#onError);
    this.#res.on('error', ignore);
    this.#req.on('error', ignore);
  }

  #settleWaiter(): void {
    const w = this.#waiter;
    if (w) {
      this.#waiter = undefined;
      w.resolve({ value: undefined, done: true });
    }
  }
}

/** Errors raised by destroying a request we already gave up on carry no news. */
function ignore(): void {}
