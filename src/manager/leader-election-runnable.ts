/**
 * The manager's leader election: runs a `LeaderElector` on the manager's Lease, keeps
 * `leader_election_master_status` in step, and calls `onStartedLeading` once the lease is won. A lost
 * lease (the fence closed while running) is told apart from a released one (the manager stopped):
 * only a loss calls `onLost`, synchronously at the instant the fence closes, so the manager can cut
 * its leader runnables before anyone else may lead. Invariant: `lost()` is true only after a loss.
 */
import type { Clock, Logger } from '../meta/index.js';
import type { Client } from '../client/index.js';
import { LeaderElectionLostError, LeaderElector, leaseLock } from './leaderelection/index.js';
import type { ManagerMetrics } from './metrics/index.js';
import type { ResolvedLeaderElection } from './options.js';

export interface LeaderElectionRunnableOptions {
  election: ResolvedLeaderElection;
  client: Client;
  metrics: ManagerMetrics;
  clock: Clock;
  logger: Logger;
  onStartedLeading(): void;
  onLost(err: LeaderElectionLostError): void;
}

export class LeaderElectionRunnable {
  readonly #elector: LeaderElector;
  #stopping: AbortSignal | undefined;
  #lost = false;

  constructor(o: LeaderElectionRunnableOptions) {
    const { election: le, metrics } = o;
    const lease = `${le.namespace}/${le.id}`;
    metrics.leaderElectionStatus(le.id, false);
    this.#elector = new LeaderElector({
      lock: leaseLock({ client: o.client, namespace: le.namespace, name: le.id }),
      identity: le.identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      releaseOnCancel: le.releaseOnCancel,
      clock: o.clock,
      logger: o.logger.child({ component: 'leader-election' }),
      onNewLeader: (leader) => o.logger.info({ lease, leader }, 'new leader elected'),
      onStartedLeading: (leading) => {
        metrics.leaderElectionStatus(le.id, true);
        leading.addEventListener(
          'abort',
          () => {
            metrics.leaderElectionStatus(le.id, false);
            if (this.#stopping?.aborted) return;
            this.#lost = true;
            o.onLost(new LeaderElectionLostError(lease));
          },
          { once: true },
        );
        o.onStartedLeading();
      },
    });
  }

  /** The fence: true only while the lease is held and renewed in time. */
  isLeading(): boolean {
    return this.#elector.isLeading();
  }

  /** Whether the lease was lost (not released at the stop). */
  lost(): boolean {
    return this.#lost;
  }

  /** Campaigns, leads and renews until `signal` aborts; an abort releases rather than loses the lease. */
  async run(signal: AbortSignal): Promise<void> {
    this.#stopping = signal;
    await this.#elector.run(signal);
  }
}
