/**
 * Leader election's errors, each with its code from the catalogue in `src/meta/errors.ts`.
 * Callers branch on `code`, never on the message.
 */
import { ConvergeError } from '../../meta/index.js';

/** The manager could not renew its leader lease before the renew deadline and stopped its controllers. */
export class LeaderElectionLostError extends ConvergeError {
  readonly code = 'CONVERGE_LEADER_ELECTION_LOST';
  override readonly name = 'LeaderElectionLostError';
  constructor(readonly lock: string) {
    super(`leader election lost (lease ${lock})`);
  }
}
