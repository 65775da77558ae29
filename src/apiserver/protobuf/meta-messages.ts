/**
 * Field numbers of the `meta.k8s.io/v1` messages the decoded kinds embed (ObjectMeta and what it
 * holds, label selectors, conditions) and of `DeleteOptions`, from apimachinery's
 * `pkg/apis/meta/v1/generated.proto`, with the JSON names and zero-value rules of the Go types (see
 * `message-schema.ts` for the notation).
 */
import type { MessageTable } from './message-schema.js';

export const META_MESSAGES: MessageTable = {
  ObjectMeta: {
    1: 'name string',
    2: 'generateName string',
    3: 'namespace string',
    4: 'selfLink string',
    5: 'uid string',
    6: 'resourceVersion string',
    7: 'generation int64',
    8: 'creationTimestamp Time',
    9: 'deletionTimestamp Time',
    10: 'deletionGracePeriodSeconds int64*',
    11: 'labels map<string,string>',
    12: 'annotations map<string,string>',
    13: 'ownerReferences []OwnerReference',
    14: 'finalizers []string',
    17: 'managedFields []ManagedFieldsEntry',
  },
  OwnerReference: {
    5: 'apiVersion string*',
    1: 'kind string*',
    3: 'name string*',
    4: 'uid string*',
    6: 'controller bool*',
    7: 'blockOwnerDeletion bool*',
  },
  ManagedFieldsEntry: {
    1: 'manager string',
    2: 'operation string',
    3: 'apiVersion string',
    4: 'time Time',
    6: 'fieldsType string',
    7: 'fieldsV1 FieldsV1',
    8: 'subresource string',
  },
  LabelSelector: { 1: 'matchLabels map<string,string>', 2: 'matchExpressions []LabelSelectorRequirement' },
  LabelSelectorRequirement: { 1: 'key string*', 2: 'operator string*', 3: 'values []string' },
  DeleteOptions: {
    1: 'gracePeriodSeconds int64*',
    2: 'preconditions Preconditions',
    3: 'orphanDependents bool*',
    4: 'propagationPolicy string*',
    5: 'dryRun []string',
    6: 'ignoreStoreReadErrorWithClusterBreakingPotential bool*',
  },
  Preconditions: { 1: 'uid string*', 2: 'resourceVersion string*' },
  Condition: {
    1: 'type string*',
    2: 'status string*',
    3: 'observedGeneration int64',
    4: 'lastTransitionTime Time',
    5: 'reason string*',
    6: 'message string*',
  },
};
