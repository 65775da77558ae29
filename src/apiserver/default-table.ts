/**
 * The default Table convertor of kube-apiserver (`rest/table.go`): a `Name` column and a
 * `Created At` date column, used for kinds without a dedicated printer. Rows carry the object as
 * `PartialObjectMetadata` (default), whole, or not at all, per `includeObject`.
 */
import type { KubeObject } from '../meta/index.js';
import type { TableConverter } from './context.js';

export const defaultTable: TableConverter = (objects, _resource, { includeObject, omitColumnDefinitions }) => {
  const rowObject = (o: KubeObject): KubeObject | undefined =>
    includeObject === 'None' ? undefined : includeObject === 'Object' ? o : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
  const table: Record<string, unknown> = {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {},
    rows: objects.map((o) => {
      const obj = rowObject(o);
      return { cells: [o.metadata.name ?? '', o.metadata.creationTimestamp ?? null], ...(obj ? { object: obj } : {}) };
    }),
  };
  if (!omitColumnDefinitions) {
    table.columnDefinitions = [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
    ];
  }
  return table;
};
