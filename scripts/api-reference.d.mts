// Types of scripts/api-reference.mjs, for the catalogue test that regenerates the reference.
export interface ApiEntry {
  layer: string;
  name: string;
  kind: 'class' | 'function' | 'enum' | 'const' | 'interface' | 'type';
  /** The first sentence of the export's TSDoc; empty when it has none. */
  summary: string;
  /** True when the declaration's TSDoc carries `@extension`: for extending Converge, not for operator authors. */
  extension: boolean;
}
export function layersOf(root: string): string[];
export function collectApi(root: string): ApiEntry[];
export function renderApi(entries: readonly ApiEntry[], guides: ReadonlySet<string>): Map<string, string>;
export function generateApi(root: string): { entries: ApiEntry[]; files: Map<string, string> };
