/**
 * `channelSource`: generic events from any async iterable of events, typically an `EventChannel`
 * (controller-runtime's `source.Channel`). Starting returns at once; a background loop hands each
 * event to the predicates and handler until the iterable ends or the controller stops, at which point
 * the iterator is closed with `return()`. It has no initial state, so it does not delay worker start.
 */
import type { KubeObject } from '../meta/index.js';
import { AlreadyStartedError } from './errors.js';
import type { GenericEvent } from './events.js';
import type { EventHandler } from './handler.js';
import type { Predicate } from './predicate.js';
import { EventDispatcher } from './source.js';
import type { Source, SourceContext } from './source.js';

/** A source of generic events from an async iterable, typically an `EventChannel`. */
export function channelSource<T extends KubeObject>(
  events: AsyncIterable<GenericEvent<T>>,
  handler: EventHandler<T>,
  ...predicates: Predicate<T>[]
): Source {
  let started = false;
  const name = 'channel source';
  return {
    toString: () => name,
    async start({ signal, queue, log }: SourceContext): Promise<void> {
      if (started) throw new AlreadyStartedError(name);
      started = true;
      const sourceLog = log.child({ source: name });
      const dispatcher = new EventDispatcher(handler, predicates, queue, sourceLog);
      void pump(events, signal, (e) => dispatcher.generic(e)).catch((err: unknown) =>
        sourceLog.error({ err }, 'channel source failed; no more events from it'),
      );
    },
  };
}

/** Reads `events` until it ends or `signal` aborts; on abort the iterator is closed. */
async function pump<E>(events: AsyncIterable<E>, signal: AbortSignal, deliver: (e: E) => void): Promise<void> {
  if (signal.aborted) return;
  const it = events[Symbol.asyncIterator]();
  let stop!: (r: IteratorResult<E>) => void;
  const stopped = new Promise<IteratorResult<E>>((resolve) => (stop = resolve));
  const onAbort = (): void => {
    stop({ value: undefined, done: true });
    void it.return?.();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      // On abort we stop waiting at once and ask the iterator to close; an iterator that cannot be
      // interrupted (a generator blocked in an await) is left to settle on its own, unread.
      const r = await Promise.race([it.next(), stopped]);
      if (r.done || signal.aborted) return;
      deliver(r.value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
