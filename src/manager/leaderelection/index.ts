// Leader election (client-go's leaderelection): the elector with its fence, its pure lease steps, and
// the coordination.k8s.io Lease lock it runs on.
export { LeaderElector, validateLeaderElectionTimings, leaseStep, observe, releasedRecord } from './leader-election.js';
export type { LeaderElectionRecord, LockSnapshot, LockChange, LeaseLock } from './lock.js';
export type { ElectorState, LeaderElectorOptions, Observation, LeaseStep } from './leader-election.js';
export { leaseLock, snapshotOf } from './lease-lock.js';
export { LeaderElectionLostError } from './errors.js';
