/**
 * Table column definitions (`meta.k8s.io/v1` `TableColumnDefinition`) and the descriptions the
 * real server gives its standard columns.
 */

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export const column = (name: string, type: string, description: string, { format = '', priority = 0 } = {}): TableColumnDefinition => ({
  name,
  type,
  format,
  description,
  priority,
});

export const nameColumn = (): TableColumnDefinition => column('Name', 'string', NAME_DESCRIPTION, { format: 'name' });
export const ageColumn = (): TableColumnDefinition => column('Age', 'string', CREATION_TIMESTAMP_DESCRIPTION);
