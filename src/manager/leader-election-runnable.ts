/**
 * The manager's leader election: runs a `LeaderElector` on the manager's Lease, keeps
 * `leader_election_master_status` in step, and calls `onStartedLeading` each time the lease is won. A
 * lost lease (the fence closed while running) is told apart from a released one (the manager stopped):
 * only a loss calls `onLost`, synchronously at the instant the fence closes, so the manager can cut
 * its leader runnables before anyone else may lead. With `onLoss: 'rejoin'` a loss ends one term, not
 * the campaign: once the promise `onLost` returned settles (the leader runnables drained), a fresh
 * elector campaigns again. Invariant: `lost()` is true only after a loss, and no term starts before
 * the previous term's `onLost` settled.
 */
import type { Clock, Logger } from '../meta/index.js';
import { untilAborted } from '../meta/internal.js';
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
  /** Called when a term begins: the lease was won. */
  onStartedLeading(): void;
  /** Called when a term ends in a loss; with rejoin, the next campaign waits until what it returns settles. */
  onLost(err: LeaderElectionLostError): Promise<void> | void;
}

export class LeaderElectionRunnable {
  readonly #o: LeaderElectionRunnableOptions;
  readonly #lease: string;
  #elector: LeaderElector;
  #stopping: AbortSignal | undefined;
  #lost = false;
  /** What the last loss's `onLost` returned: the next term waits for it. */
  #drained: Promise<void> | void = undefined;

  constructor(o: LeaderElectionRunnableOptions) {
    this.#o = o;
    this.#lease = `${o.election.namespace}/${o.election.id}`;
    o.metrics.leaderElectionStatus(o.election.id, false);
    this.#elector = this.#newElector();
  }

  #newElector(): LeaderElector {
    const { election: le, metrics, logger } = this.#o;
    return new LeaderElector({
      lock: leaseLock({ client: this.#o.client, namespace: le.namespace, name: le.id }),
      identity: le.identity,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      releaseOnCancel: le.releaseOnCancel,
      clock: this.#o.clock,
      logger: logger.child({ component: 'leader-election' }),
      onNewLeader: (leader) => logger.info({ lease: this.#lease, leader }, 'new leader elected'),
      onStartedLeading: (leading) => {
        metrics.leaderElectionStatus(le.id, true);
        leading.addEventListener(
          'abort',
          () => {
            metrics.leaderElectionStatus(le.id, false);
            if (this.#stopping?.aborted) return;
            this.#lost = true;
            this.#drained = this.#o.onLost(new LeaderElectionLostError(this.#lease));
          },
          { once: true },
        );
        this.#lost = false;
        this.#o.onStartedLeading();
      },
    });
  }

  /** The fence: true only while the lease is held and renewed in time. */
  isLeading(): boolean {
    return this.#elector.isLeading();
  }

  /** Whether the last term ended in a loss (not a release at the stop) and no term began since. */
  lost(): boolean {
    return this.#lost;
  }

  /**
   * Campaigns, leads and renews until `signal` aborts (an abort releases rather than loses the lease),
   * or, with `onLoss: 'exit'`, until the lease is lost.
   */
  async run(signal: AbortSignal): Promise<void> {
    this.#stopping = signal;
    for (;;) {
      const outcome = await this.#elector.run(signal);
      if (outcome === 'cancelled' || this.#o.election.onLoss === 'exit') return;
      try {
        // A leader runnable that never returns keeps the manager out of the election, but not from stopping.
        await untilAborted(Promise.resolve(this.#drained), signal);
      } catch {
        return;
      }
      this.#o.logger.info({ lease: this.#lease }, 'leader runnables stopped; campaigning again');
      this.#elector = this.#newElector();
    }
  }
}
