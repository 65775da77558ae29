/**
 * Field numbers of `coordination.k8s.io/v1` Lease and `events.k8s.io/v1` Event, the kinds
 * client-go's leader election and event recorders write (typed clients, so protobuf when configured
 * for it), from their `k8s.io/api` `generated.proto` files, with the JSON names and zero-value rules
 * of the Go types (notation: `message-schema.ts`). The `events.k8s.io` messages are prefixed
 * `EventsV1` because core `v1` has messages of the same names with other JSON rules.
 */
import type { MessageTable } from './message-schema.js';

export const COORDINATION_EVENTS_MESSAGES: MessageTable = {
  Lease: { 1: 'metadata ObjectMeta', 2: 'spec LeaseSpec' },
  LeaseSpec: {
    1: 'holderIdentity string*',
    2: 'leaseDurationSeconds int32*',
    3: 'acquireTime MicroTime',
    4: 'renewTime MicroTime',
    5: 'leaseTransitions int32*',
    6: 'strategy string*',
    7: 'preferredHolder string*',
  },
  EventsV1Event: {
    1: 'metadata ObjectMeta',
    2: 'eventTime MicroTime',
    3: 'series EventsV1EventSeries',
    4: 'reportingController string',
    5: 'reportingInstance string',
    6: 'action string',
    7: 'reason string',
    8: 'regarding ObjectReference',
    9: 'related ObjectReference',
    10: 'note string',
    11: 'type string',
    12: 'deprecatedSource EventSource',
    13: 'deprecatedFirstTimestamp Time',
    14: 'deprecatedLastTimestamp Time',
    15: 'deprecatedCount int32',
  },
  EventsV1EventSeries: { 1: 'count int32*', 2: 'lastObservedTime MicroTime' },
};
