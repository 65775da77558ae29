// Table output (`as=Table`) for kubectl get: the Table builder, and what a kind's printer is made of
// (column definitions and defensive cell readers), so each strategy can carry its own printer.
export { toTable, defaultPrinter } from './table.js';
export type { Table, TableRow, TableListMeta, ToTableOptions, IncludeObject, TablePrinter } from './table.js';
export { column, nameColumn, ageColumn } from './columns.js';
export type { TableColumnDefinition } from './columns.js';
export * as cells from './cells.js';
export { ageOf, humanDuration } from './human-duration.js';
export { parseJsonPath, evaluateJsonPath } from './jsonpath.js';
