/**
 * The `meta.k8s.io/v1` schemas every group-version document references: ObjectMeta (so
 * `kubectl explain <kind>.metadata` works and CRD schemas can point at it), ListMeta, Status,
 * DeleteOptions, Patch and WatchEvent. Descriptions are short versions of the upstream ones.
 */
import { OBJECT_META, LIST_META, STATUS, PATCH, DELETE_OPTIONS, WATCH_EVENT, META_V1, ref } from './component-names.js';

const str = (description: string) => ({ type: 'string', description });
const int = (description: string, format = 'int64') => ({ type: 'integer', format, description });
const time = (description: string) => ({ type: 'string', format: 'date-time', description });
const stringMap = (description: string) => ({ type: 'object', additionalProperties: { type: 'string', default: '' }, description });

const ownerReference = {
  type: 'object',
  description: 'OwnerReference contains enough information to let you identify an owning object.',
  required: ['apiVersion', 'kind', 'name', 'uid'],
  properties: {
    apiVersion: str('API version of the referent.'),
    kind: str('Kind of the referent.'),
    name: str('Name of the referent.'),
    uid: str('UID of the referent.'),
    controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
    blockOwnerDeletion: {
      type: 'boolean',
      description: 'If true, the owner cannot be deleted from the key-value store until this reference is removed.',
    },
  },
  'x-kubernetes-map-type': 'atomic',
};

const managedFieldsEntry = {
  type: 'object',
  description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
  properties: {
    manager: str('Manager is an identifier of the workflow managing these fields.'),
    operation: str(
      "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
    ),
    apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
    time: time('Time is the timestamp of when the ManagedFields entry was added.'),
    fieldsType: str(
      'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"',
    ),
    fieldsV1: { type: 'object', description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.' },
    subresource: str(
      'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.',
    ),
  },
};

const objectMeta = {
  type: 'object',
  description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  properties: {
    name: str('Name must be unique within a namespace. Cannot be updated.'),
    generateName: str(
      'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
    ),
    namespace: str('Namespace defines the space within which each name must be unique. Cannot be updated.'),
    uid: str('UID is the unique in time and space value for this object. Populated by the system. Read-only.'),
    resourceVersion: str('An opaque value that represents the internal version of this object. Populated by the system. Read-only.'),
    generation: int('A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.'),
    creationTimestamp: time(
      'CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.',
    ),
    deletionTimestamp: time(
      'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system when a graceful deletion is requested. Read-only.',
    ),
    deletionGracePeriodSeconds: int(
      'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.',
    ),
    labels: stringMap('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
    annotations: stringMap(
      'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.',
    ),
    ownerReferences: {
      type: 'array',
      items: { default: {}, allOf: [ref(`${META_V1}.OwnerReference`)] },
      description: 'List of objects depended by this object.',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    },
    finalizers: {
      type: 'array',
      items: { type: 'string', default: '' },
      description: 'Must be empty before the object is deleted from the registry.',
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    },
    managedFields: {
      type: 'array',
      items: { default: {}, allOf: [ref(`${META_V1}.ManagedFieldsEntry`)] },
      description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
      'x-kubernetes-list-type': 'atomic',
    },
    selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
  },
};

const listMeta = {
  type: 'object',
  description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
  properties: {
    resourceVersion: str(
      "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed.",
    ),
    continue: str(
      'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.',
    ),
    remainingItemCount: int(
      'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
    ),
    selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
  },
};

const status = {
  type: 'object',
  description: "Status is a return value for calls that don't return other objects.",
  properties: {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
    kind: str('Kind is a string value representing the REST resource this object represents.'),
    metadata: { default: {}, allOf: [ref(LIST_META)], description: 'Standard list metadata.' },
    status: str('Status of the operation. One of: "Success" or "Failure".'),
    message: str('A human-readable description of the status of this operation.'),
    reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
    details: { type: 'object', description: 'Extended data associated with the reason.', 'x-kubernetes-preserve-unknown-fields': true },
    code: int('Suggested HTTP return code for this status, 0 if not set.', 'int32'),
  },
  'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
};

const deleteOptions = {
  type: 'object',
  description: 'DeleteOptions may be provided when deleting an API object.',
  properties: {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
    kind: str('Kind is a string value representing the REST resource this object represents.'),
    dryRun: {
      type: 'array',
      items: { type: 'string', default: '' },
      description: 'When present, indicates that modifications should not be persisted.',
    },
    gracePeriodSeconds: int('The duration in seconds before the object should be deleted.'),
    preconditions: {
      type: 'object',
      description: 'Must be fulfilled before a deletion is carried out.',
      properties: { resourceVersion: str('Specifies the target ResourceVersion'), uid: str('Specifies the target UID.') },
    },
    propagationPolicy: str(
      "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
    ),
    orphanDependents: { type: 'boolean', description: 'Deprecated: please use the PropagationPolicy.' },
  },
};

const watchEvent = {
  type: 'object',
  description: 'Event represents a single event to a watched resource.',
  required: ['type', 'object'],
  properties: {
    type: str('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
    object: { type: 'object', description: 'The object of the event.', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

/** The shared `meta.k8s.io/v1` component schemas, keyed by component name. */
export function metaSchemas(): Record<string, unknown> {
  return {
    [OBJECT_META]: objectMeta,
    [LIST_META]: listMeta,
    [`${META_V1}.OwnerReference`]: ownerReference,
    [`${META_V1}.ManagedFieldsEntry`]: managedFieldsEntry,
    [STATUS]: status,
    [DELETE_OPTIONS]: deleteOptions,
    [PATCH]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
    [WATCH_EVENT]: watchEvent,
  };
}
