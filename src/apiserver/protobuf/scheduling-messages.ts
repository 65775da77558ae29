/**
 * Field numbers of the `scheduling.k8s.io/v1` PriorityClass (`kubectl create priorityclass` sends it
 * as protobuf), from `k8s.io/api/scheduling/v1/generated.proto`, with the JSON names and zero-value
 * rules of the Go type (notation: `message-schema.ts`): `value` has no `omitempty`, and
 * `preemptionPolicy` is a pointer.
 */
import type { MessageTable } from './message-schema.js';

export const SCHEDULING_MESSAGES: MessageTable = {
  PriorityClass: {
    1: 'metadata ObjectMeta',
    2: 'value int32*',
    3: 'globalDefault bool',
    4: 'description string',
    5: 'preemptionPolicy string*',
  },
};
