/**
 * The reader client of the cache's end-to-end tests: the public `faultInjectingClient` with hooks that
 * record when each list (its first page) and each watch was started, and a switch that silently drops
 * watch events (a stalled connection whose bytes never arrive) while leaving ERROR events through.
 */
import type { Client } from 'kube-converge/client';
import { faultInjectingClient, type FaultInjectingClient } from 'kube-converge/testing';

export interface FaultyClient extends FaultInjectingClient {
  /** `performance.now()` at the start of each list (continuation pages are not counted). */
  readonly listTimes: number[];
  /** `performance.now()` at the start of each watch. */
  readonly watchTimes: number[];
  /** While true, every watch event but ERROR is lost in flight. */
  dropEvents: boolean;
}

export function faultyClient(inner: Client): FaultyClient {
  const listTimes: number[] = [];
  const watchTimes: number[] = [];
  const client: FaultyClient = Object.assign(
    faultInjectingClient(inner, {
      beforeList: (_r, o) => {
        if (!o?.continue) listTimes.push(performance.now());
      },
      beforeWatch: () => {
        watchTimes.push(performance.now());
      },
      beforeWatchEvent: (_r, e) => (client.dropEvents && e.type !== 'ERROR' ? 'drop' : undefined),
    }),
    { listTimes, watchTimes, dropEvents: false },
  );
  return client;
}
