/**
 * EventChannel: a simple way to trigger reconciles from outside the cluster (a webhook, a timer, a
 * message bus). `send(obj)` queues a generic event; a `channelSource` over the channel delivers it.
 * Events sent before the source starts are kept and delivered on start; after `close()` (or the
 * controller stopping, which closes it) nothing more is accepted and the source ends once the buffer
 * is drained. The buffer is unbounded, but only fills while no source reads it: a running source
 * takes each event as soon as it is sent.
 *
 * Invariant: events are delivered in send order, each exactly once, to one consumer.
 */
import type { KubeObject } from '../meta/index.js';
import type { GenericEvent } from './events.js';

/** A queue of generic events sent from outside the cluster, delivered to a controller by a `channelSource`. */
export class EventChannel<T extends KubeObject = KubeObject> implements AsyncIterable<GenericEvent<T>> {
  readonly #buffer: GenericEvent<T>[] = [];
  #waiter: ((r: IteratorResult<GenericEvent<T>>) => void) | undefined;
  #closed = false;
  #iterated = false;

  /** Queues a generic event for `object`. Returns false, queuing nothing, once the channel is closed. */
  send(object: T): boolean {
    if (this.#closed) return false;
    const event: GenericEvent<T> = { object };
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
    } else {
      this.#buffer.push(event);
    }
    return true;
  }

  /** Stops accepting events; the consumer still receives what was buffered, then ends. */
  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  /** Events not yet consumed. */
  get length(): number {
    return this.#buffer.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<GenericEvent<T>> {
    if (this.#iterated) throw new TypeError('EventChannel: only one consumer may iterate a channel');
    this.#iterated = true;
    return {
      next: () => {
        const event = this.#buffer.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiter = resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
