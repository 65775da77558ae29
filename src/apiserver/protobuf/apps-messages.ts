/**
 * Field numbers of the `apps/v1` workload messages (Deployment, ReplicaSet, DaemonSet, StatefulSet
 * without volume claim templates), from `k8s.io/api/apps/v1/generated.proto`, with the JSON names
 * and zero-value rules of the Go types (notation: `message-schema.ts`).
 */
import type { MessageTable } from './message-schema.js';

export const APPS_MESSAGES: MessageTable = {
  Deployment: { 1: 'metadata ObjectMeta', 2: 'spec DeploymentSpec', 3: 'status DeploymentStatus' },
  DeploymentSpec: {
    1: 'replicas int32*', 2: 'selector LabelSelector', 3: 'template PodTemplateSpec', 4: 'strategy DeploymentStrategy',
    5: 'minReadySeconds int32', 6: 'revisionHistoryLimit int32*', 7: 'paused bool', 9: 'progressDeadlineSeconds int32*',
  },
  DeploymentStrategy: { 1: 'type string', 2: 'rollingUpdate RollingUpdateDeployment' },
  RollingUpdateDeployment: { 1: 'maxUnavailable IntOrString*', 2: 'maxSurge IntOrString*' },
  DeploymentStatus: {
    1: 'observedGeneration int64', 2: 'replicas int32', 3: 'updatedReplicas int32', 7: 'readyReplicas int32', 4: 'availableReplicas int32',
    5: 'unavailableReplicas int32', 9: 'terminatingReplicas int32*', 6: 'conditions []DeploymentCondition', 8: 'collisionCount int32*',
  },
  DeploymentCondition: {
    1: 'type string*', 2: 'status string*', 6: 'lastUpdateTime Time', 7: 'lastTransitionTime Time', 4: 'reason string', 5: 'message string',
  },

  ReplicaSet: { 1: 'metadata ObjectMeta', 2: 'spec ReplicaSetSpec', 3: 'status ReplicaSetStatus' },
  ReplicaSetSpec: { 1: 'replicas int32*', 4: 'minReadySeconds int32', 2: 'selector LabelSelector', 3: 'template PodTemplateSpec' },
  ReplicaSetStatus: {
    1: 'replicas int32*', 2: 'fullyLabeledReplicas int32', 4: 'readyReplicas int32', 5: 'availableReplicas int32', 7: 'terminatingReplicas int32*',
    3: 'observedGeneration int64', 6: 'conditions []ReplicaSetCondition',
  },
  ReplicaSetCondition: { 1: 'type string*', 2: 'status string*', 3: 'lastTransitionTime Time', 4: 'reason string', 5: 'message string' },

  DaemonSet: { 1: 'metadata ObjectMeta', 2: 'spec DaemonSetSpec', 3: 'status DaemonSetStatus' },
  DaemonSetSpec: { 1: 'selector LabelSelector', 2: 'template PodTemplateSpec', 3: 'updateStrategy DaemonSetUpdateStrategy', 4: 'minReadySeconds int32', 6: 'revisionHistoryLimit int32*' },
  DaemonSetUpdateStrategy: { 1: 'type string', 2: 'rollingUpdate RollingUpdateDaemonSet' },
  RollingUpdateDaemonSet: { 1: 'maxUnavailable IntOrString*', 2: 'maxSurge IntOrString*' },
  DaemonSetStatus: {
    1: 'currentNumberScheduled int32*', 2: 'numberMisscheduled int32*', 3: 'desiredNumberScheduled int32*', 4: 'numberReady int32*',
    5: 'observedGeneration int64', 6: 'updatedNumberScheduled int32', 7: 'numberAvailable int32', 8: 'numberUnavailable int32',
    9: 'collisionCount int32*', 10: 'conditions []DaemonSetCondition',
  },
  DaemonSetCondition: { 1: 'type string*', 2: 'status string*', 3: 'lastTransitionTime Time', 4: 'reason string', 5: 'message string' },

  StatefulSet: { 1: 'metadata ObjectMeta', 2: 'spec StatefulSetSpec', 3: 'status StatefulSetStatus' },
  StatefulSetSpec: {
    1: 'replicas int32*', 2: 'selector LabelSelector', 3: 'template PodTemplateSpec', 5: 'serviceName string*', 6: 'podManagementPolicy string',
    7: 'updateStrategy StatefulSetUpdateStrategy', 8: 'revisionHistoryLimit int32*', 9: 'minReadySeconds int32',
    10: 'persistentVolumeClaimRetentionPolicy StatefulSetPersistentVolumeClaimRetentionPolicy', 11: 'ordinals StatefulSetOrdinals',
  },
  StatefulSetUpdateStrategy: { 1: 'type string', 2: 'rollingUpdate RollingUpdateStatefulSetStrategy' },
  RollingUpdateStatefulSetStrategy: { 1: 'partition int32*', 2: 'maxUnavailable IntOrString*' },
  StatefulSetPersistentVolumeClaimRetentionPolicy: { 1: 'whenDeleted string', 2: 'whenScaled string' },
  StatefulSetOrdinals: { 1: 'start int32*' },
  StatefulSetStatus: {
    1: 'observedGeneration int64', 2: 'replicas int32*', 3: 'readyReplicas int32', 4: 'currentReplicas int32', 5: 'updatedReplicas int32',
    6: 'currentRevision string', 7: 'updateRevision string', 9: 'collisionCount int32*', 10: 'conditions []StatefulSetCondition', 11: 'availableReplicas int32*',
  },
  StatefulSetCondition: { 1: 'type string*', 2: 'status string*', 3: 'lastTransitionTime Time', 4: 'reason string', 5: 'message string' },
};
