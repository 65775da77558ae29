// Table output (`as=Table`) for kubectl get, from the served resource's printer columns.
export { toTable, builtinPrinterColumns } from './table.js';
export type { Table, TableRow, TableListMeta, ToTableOptions, IncludeObject } from './table.js';
export type { TableColumnDefinition } from './columns.js';
export { humanDuration } from './human-duration.js';
export { parseJsonPath, evaluateJsonPath } from './jsonpath.js';
