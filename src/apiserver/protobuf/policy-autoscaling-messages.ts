/**
 * Field numbers of `policy/v1` Eviction and PodDisruptionBudget and of `autoscaling/v2`
 * HorizontalPodAutoscaler, from their `k8s.io/api` `generated.proto` files, with the JSON names and
 * zero-value rules of the Go types (notation: `message-schema.ts`). A PDB status listing disrupted
 * pods, and HPA current metrics in a status, are not modelled (415 when sent).
 */
import type { MessageTable } from './message-schema.js';

export const POLICY_AUTOSCALING_MESSAGES: MessageTable = {
  Eviction: { 1: 'metadata ObjectMeta', 2: 'deleteOptions DeleteOptions' },
  PodDisruptionBudget: { 1: 'metadata ObjectMeta', 2: 'spec PodDisruptionBudgetSpec', 3: 'status PodDisruptionBudgetStatus' },
  PodDisruptionBudgetSpec: {
    1: 'minAvailable IntOrString*',
    2: 'selector LabelSelector',
    3: 'maxUnavailable IntOrString*',
    4: 'unhealthyPodEvictionPolicy string*',
  },
  PodDisruptionBudgetStatus: {
    1: 'observedGeneration int64',
    3: 'disruptionsAllowed int32*',
    4: 'currentHealthy int32*',
    5: 'desiredHealthy int32*',
    6: 'expectedPods int32*',
    7: 'conditions []Condition',
  },

  HorizontalPodAutoscaler: { 1: 'metadata ObjectMeta', 2: 'spec HorizontalPodAutoscalerSpec', 3: 'status HorizontalPodAutoscalerStatus' },
  HorizontalPodAutoscalerSpec: {
    1: 'scaleTargetRef CrossVersionObjectReference',
    2: 'minReplicas int32*',
    3: 'maxReplicas int32*',
    4: 'metrics []MetricSpec',
    5: 'behavior HorizontalPodAutoscalerBehavior',
  },
  CrossVersionObjectReference: { 1: 'kind string*', 2: 'name string*', 3: 'apiVersion string' },
  MetricSpec: {
    1: 'type string*',
    2: 'object ObjectMetricSource',
    3: 'pods PodsMetricSource',
    4: 'resource ResourceMetricSource',
    7: 'containerResource ContainerResourceMetricSource',
    5: 'external ExternalMetricSource',
  },
  ObjectMetricSource: { 1: 'describedObject CrossVersionObjectReference', 2: 'target MetricTarget', 3: 'metric MetricIdentifier' },
  PodsMetricSource: { 1: 'metric MetricIdentifier', 2: 'target MetricTarget' },
  ResourceMetricSource: { 1: 'name string*', 2: 'target MetricTarget' },
  ContainerResourceMetricSource: { 1: 'name string*', 2: 'target MetricTarget', 3: 'container string*' },
  ExternalMetricSource: { 1: 'metric MetricIdentifier', 2: 'target MetricTarget' },
  MetricIdentifier: { 1: 'name string*', 2: 'selector LabelSelector' },
  MetricTarget: { 1: 'type string*', 2: 'value Quantity', 3: 'averageValue Quantity', 4: 'averageUtilization int32*' },
  HorizontalPodAutoscalerBehavior: { 1: 'scaleUp HPAScalingRules', 2: 'scaleDown HPAScalingRules' },
  HPAScalingRules: {
    3: 'stabilizationWindowSeconds int32*',
    1: 'selectPolicy string*',
    2: 'policies []HPAScalingPolicy',
    4: 'tolerance Quantity',
  },
  HPAScalingPolicy: { 1: 'type string*', 2: 'value int32*', 3: 'periodSeconds int32*' },
  HorizontalPodAutoscalerStatus: {
    1: 'observedGeneration int64*',
    2: 'lastScaleTime Time',
    3: 'currentReplicas int32',
    4: 'desiredReplicas int32*',
    6: 'conditions []HorizontalPodAutoscalerCondition',
  },
  HorizontalPodAutoscalerCondition: {
    1: 'type string*',
    2: 'status string*',
    3: 'lastTransitionTime Time',
    4: 'reason string',
    5: 'message string',
    6: 'observedGeneration int64*',
  },
};
