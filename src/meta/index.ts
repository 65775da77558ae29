// The object model: types and helpers every other layer builds on. Imports nothing of ours.
export { realClock, FakeClock } from './clock.js';
export type { Clock, Timer } from './clock.js';
export { ConvergeError, InvalidOptionError, InvalidKeyError, UnknownResourceError, SelectorParseError } from './errors.js';
export type { ErrorCode } from './errors.js';
export type {
  KubeObject,
  Resource,
  KubeList,
  PartialObjectMetadata,
  WatchEventType,
  DeepReadonly,
  ObjectMeta,
  Status,
  ListMeta,
  OwnerReference,
  Condition,
  LabelSelector,
  LabelSelectorRequirement,
} from './object.js';
export { jsonLogger, noopLogger } from './logger.js';
export type { Logger, LogLevel, LogFields, JsonLoggerOptions } from './logger.js';
export { keyOf, objectKey, splitKey, namespacedNameOf } from './keys.js';
export type { NamespacedName } from './keys.js';
export { parseGroupVersion, formatGroupVersion, gvkOf } from './gvk.js';
export type { GroupVersion, GroupVersionKind, GroupVersionResource } from './gvk.js';
export {
  defineResource,
  gvkOfResource,
  gvrOfResource,
  NamespaceResource,
  ConfigMapResource,
  SecretResource,
  ServiceResource,
  ServiceAccountResource,
  PodResource,
  CoreEventResource,
  DeploymentResource,
  ReplicaSetResource,
  LeaseResource,
  EventResource,
  CustomResourceDefinitionResource,
  RoleResource,
  RoleBindingResource,
  ClusterRoleResource,
  ClusterRoleBindingResource,
} from './resource.js';
export type { ResourceDescriptor, ResourceDefinition, ObjectOf } from './resource.js';
export { qualifiedNameErrors, labelValueErrors, dns1123SubdomainErrors, dns1123LabelErrors, dns1035LabelErrors } from './validation.js';
export { parseLabelSelector, selectorFromLabelSelector, selectorFromSet, everything, nothing } from './label-selector.js';
export type { Selector } from './label-selector.js';
export { parseFieldSelector, fieldSelectorFromSet, escapeFieldValue } from './field-selector.js';
export type { FieldSelector } from './field-selector.js';
export {
  getControllerOf,
  isControlledBy,
  hasControllerReference,
  ownerReferencesByUid,
  hasOwnerReference,
  newControllerRef,
} from './owners.js';
export { formatTimestamp } from './timestamp.js';
export { compareResourceVersion } from './resource-version.js';
export {
  setStatusCondition,
  findStatusCondition,
  removeStatusCondition,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  isStatusConditionFalse,
} from './conditions.js';
export type { NewCondition, ConditionStatus } from './conditions.js';
export { jsonEqual } from './json-equal.js';
export { deepFreeze, clone } from './freeze.js';
export type { DeepMutable } from './freeze.js';
export type { CounterMetric, SettableGaugeMetric, HistogramMetric } from './metric-instruments.js';
