// Imports the client's private WatchDecoder: a replayed watch decodes recorded bytes as a socket's would be.
/**
 * A watch over recorded chunks of a watch stream, for measuring the informer without a socket: one
 * chunk is decoded per event-loop turn (as a socket hands them over), then the stream stays silent
 * until closed. Shared by the informer-stages benchmark and the memory gate's probe, so both measure
 * the same path.
 */
import type { WatchEvent, WatchStream } from 'kube-converge/client';
import type { KubeObject } from 'kube-converge/meta';
import { WatchDecoder } from '../src/client/watch-decoder.js';

export function replayedWatch(chunks: readonly Buffer[]): WatchStream<KubeObject> {
  const decoder = new WatchDecoder();
  let queue: WatchEvent[] = [];
  let head = 0;
  let next = 0;
  let closed = false;
  let idle: ((r: IteratorResult<WatchEvent>) => void) | undefined;
  const push = (ev: WatchEvent): void => void queue.push(ev);
  const take = (resolve: (r: IteratorResult<WatchEvent>) => void): void => {
    if (closed) return resolve({ value: undefined, done: true });
    while (head === queue.length && next < chunks.length) {
      queue = [];
      head = 0;
      decoder.write(chunks[next++]!, push);
    }
    if (head < queue.length) resolve({ value: queue[head++]!, done: false });
    else idle = resolve;
  };
  return {
    close: () => {
      closed = true;
      idle?.({ value: undefined, done: true });
    },
    drainDecoded: (fn, more) => {
      let n = 0;
      for (; head < queue.length && more(); n++) fn(queue[head++]!);
      return n;
    },
    [Symbol.asyncIterator]: () => ({ next: () => new Promise((resolve) => setImmediate(take, resolve)) }),
  };
}
