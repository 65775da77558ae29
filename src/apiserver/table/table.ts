/**
 * `meta.k8s.io/v1` Table responses (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), what
 * `kubectl get` prints: custom resources get `Name` plus their CRD's `additionalPrinterColumns`
 * (or a single `Age` column when none are declared), built-ins the columns of the printer their
 * strategy carries, and everything else the default `Name`/`Created At` columns. Each row carries the
 * object as `includeObject` asks: `PartialObjectMetadata` (default), the whole object, or nothing.
 * Ages are computed from `now`, as the real server does, so output is reproducible.
 */
import type { CustomResourceColumnDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { ServedResource } from '../served-resource.js';
import { column, nameColumn, NAME_DESCRIPTION, CREATION_TIMESTAMP_DESCRIPTION } from './columns.js';
import type { TableColumnDefinition } from './columns.js';
import { ageOf } from './human-duration.js';
import { evaluateJsonPath, parseJsonPath } from './jsonpath.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface TableRow {
  cells: unknown[];
  object: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: TableListMeta;
  /** `null` when omitted (watch events after the first), as the real server encodes it. */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}

export interface ToTableOptions {
  includeObject: IncludeObject;
  /** Milliseconds since the epoch; ages are computed against it. */
  now: number;
  /** Leave out column definitions (every watch event after the first). */
  omitColumnDefinitions?: boolean;
  listMeta?: TableListMeta;
  /** The server-side printer of a built-in kind; kinds without one get the default columns. */
  printer?: TablePrinter;
}

/** A kind's server-side printer: its columns and how one object fills them. */
export interface TablePrinter {
  columns: TableColumnDefinition[];
  cells(obj: Record<string, unknown>, now: number): unknown[];
}

type Metadata = { name?: string; creationTimestamp?: string } | undefined;
const metadataOf = (obj: Record<string, unknown>): Metadata => obj['metadata'] as Metadata;

/** The columns a CRD gets when it declares none. */
const DEFAULT_CR_COLUMNS: CustomResourceColumnDefinition[] = [
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: CREATION_TIMESTAMP_DESCRIPTION },
];

function customResourcePrinter(declared: readonly CustomResourceColumnDefinition[]): TablePrinter {
  const columns = declared.length === 0 ? DEFAULT_CR_COLUMNS : declared;
  const paths = columns.map((c) => parseJsonPath(c.jsonPath));
  return {
    columns: [
      nameColumn(),
      ...columns.map((c) => column(c.name, c.type, c.description ?? '', { format: c.format ?? '', priority: c.priority ?? 0 })),
    ],
    cells: (obj, now) => [
      metadataOf(obj)?.name ?? '',
      ...columns.map((c, i) => {
        const results = evaluateJsonPath(obj, paths[i] ?? []);
        return results.length === 0 ? null : cellFor(c.type, results[0], now);
      }),
    ],
  };
}

/** A CRD printer cell from a JSON value, by column type (mismatched values are empty cells). */
function cellFor(type: string, value: unknown, now: number): unknown {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : ageOf(value, now);
    default:
      return null;
  }
}

/**
 * The columns kube-apiserver prints for a kind that has no printer of its own (its default table
 * convertor): `Name` and `Created At`. A built-in kind that prints this way names it as its printer.
 */
export const defaultPrinter: TablePrinter = {
  columns: [column('Name', 'string', NAME_DESCRIPTION, { format: 'name' }), column('Created At', 'date', CREATION_TIMESTAMP_DESCRIPTION)],
  cells: (obj) => [metadataOf(obj)?.name ?? '', metadataOf(obj)?.creationTimestamp ?? ''],
};

function printerFor(resource: ServedResource, printer: TablePrinter | undefined): TablePrinter {
  if (resource.custom) return customResourcePrinter(resource.printerColumns ?? []);
  return printer ?? defaultPrinter;
}

function rowObject(obj: Record<string, unknown>, includeObject: IncludeObject): unknown {
  if (includeObject === 'None') return null;
  if (includeObject === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj['metadata'] ?? {} };
}

/** The Table for `objects` of `resource`. */
export function toTable(objects: readonly Record<string, unknown>[], resource: ServedResource, options: ToTableOptions): Table {
  const printer = printerFor(resource, options.printer);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: options.listMeta ?? {},
    columnDefinitions: options.omitColumnDefinitions === true ? null : printer.columns,
    rows: objects.map((obj) => ({ cells: printer.cells(obj, options.now), object: rowObject(obj, options.includeObject) })),
  };
}
