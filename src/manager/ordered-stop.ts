/**
 * The manager's stop: its runnable groups stopped one after the other in controller-runtime's order,
 * then a final step (flushing events), all within a grace period. Invariant: past the grace period
 * nothing more is waited for, but every group still gets its abort; a grace of 0 cuts at once
 * without counting as a timeout, and `Infinity` waits for as long as it takes.
 */
import type { Clock } from '../meta/index.js';
import { ShutdownTimeoutError } from './errors.js';
import type { RunnableGroup } from './runnable-group.js';

export interface OrderedStopOptions {
  /** Stopped in this order, each once the one before has stopped. */
  groups: readonly RunnableGroup[];
  /** Runs after the last group stopped, within the same grace period. */
  finally: () => Promise<void>;
  graceMs: number;
  reason: unknown;
  clock: Clock;
}

/** Resolves with the timeout error if the grace period passed first, else with undefined. */
export async function stopInOrder(o: OrderedStopOptions): Promise<ShutdownTimeoutError | undefined> {
  const pending = new Set(o.groups.map((g) => g.name));
  const stopping = (async () => {
    for (const group of o.groups) {
      await group.stop(o.reason);
      pending.delete(group.name);
    }
    await o.finally();
  })();
  if (o.graceMs === Infinity) {
    await stopping;
    return undefined;
  }
  const finished = await new Promise<boolean>((resolve) => {
    const timer = o.clock.setTimer(() => resolve(false), o.graceMs);
    void stopping.then(() => {
      timer.cancel();
      resolve(true);
    });
  });
  if (finished) return undefined;
  for (const group of o.groups) group.abort(o.reason);
  return o.graceMs === 0 ? undefined : new ShutdownTimeoutError(o.graceMs, [...pending]);
}
