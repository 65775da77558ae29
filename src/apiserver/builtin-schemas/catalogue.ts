/**
 * The schemas of the built-in kinds as OpenAPI v3 components, named as Kubernetes names them
 * (`io.k8s.api.apps.v1.Deployment` and so on, `$ref`s between them), for what this server serves
 * (made by scripts/builtin-schemas.mts from @kubernetes/client-node's models, with the list and
 * patch extensions of Kubernetes' own published document; see NOTICE.md). Parsed on first use (the
 * first write of a built-in kind, whose managed fields need its list types) and shared by every
 * server in the process.
 */
import { gunzipSync } from 'node:zlib';
import { readDataFile } from './data-file.js';

export type SchemaObject = Record<string, unknown>;

const PREFIX = '#/components/schemas/';

/** The component a schema node stands for (`{$ref}` or `{allOf: [{$ref}]}`), or undefined for an inline schema. */
export function refOf(s: SchemaObject): string | undefined {
  const ref = s['$ref'] ?? (s['allOf'] as SchemaObject[] | undefined)?.[0]?.['$ref'];
  return typeof ref === 'string' && ref.startsWith(PREFIX) ? ref.slice(PREFIX.length) : undefined;
}

/** What the data file holds. */
interface CatalogueData {
  kubernetesVersion: string;
  /** The package and version the data was made from. */
  source: string;
  /** The package, version and file the list and patch extensions were copied from. */
  mergeExtensionsSource: string;
  schemas: Record<string, SchemaObject>;
}

export class BuiltinSchemas {
  readonly kubernetesVersion: string;
  readonly source: string;
  readonly mergeExtensionsSource: string;
  readonly #schemas: Readonly<Record<string, SchemaObject>>;
  readonly #byGvk = new Map<string, string>();

  constructor(data: CatalogueData) {
    this.kubernetesVersion = data.kubernetesVersion;
    this.source = data.source;
    this.mergeExtensionsSource = data.mergeExtensionsSource;
    this.#schemas = data.schemas;
    for (const [name, s] of Object.entries(data.schemas)) {
      for (const gvk of (s['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
        this.#byGvk.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, name);
      }
    }
  }

  schema(name: string): SchemaObject | undefined {
    return this.#schemas[name];
  }

  /** The component whose `x-kubernetes-group-version-kind` names this kind, if Kubernetes has one. */
  componentOf(gvk: { group: string; version: string; kind: string }): string | undefined {
    return this.#byGvk.get(`${gvk.group}/${gvk.version}/${gvk.kind}`);
  }

  /** A schema node with `$ref`s followed to the component they name. */
  resolve(s: SchemaObject | undefined): SchemaObject | undefined {
    let at = s;
    for (let ref = at && refOf(at); ref !== undefined; ref = refOf(at)) {
      at = this.#schemas[ref];
      if (at === undefined) return undefined;
    }
    return at;
  }

  /** The named components and every component they reference, by name (the `components.schemas` of a document). */
  closure(names: readonly string[]): Record<string, SchemaObject> {
    const out: Record<string, SchemaObject> = {};
    const pending = [...names];
    while (pending.length > 0) {
      const name = pending.pop()!;
      const s = this.#schemas[name];
      if (out[name] !== undefined || s === undefined) continue;
      out[name] = s;
      collectRefs(s, pending);
    }
    return out;
  }
}

function collectRefs(value: unknown, out: string[]): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) out.push(v.slice(PREFIX.length));
      else collectRefs(v, out);
    }
  }
}

let loaded: BuiltinSchemas | undefined;

/** The process's catalogue, parsed on the first call. */
export function builtinSchemas(): BuiltinSchemas {
  loaded ??= new BuiltinSchemas(JSON.parse(gunzipSync(readDataFile('kubernetes-openapi.json.gz')).toString('utf8')) as CatalogueData);
  return loaded;
}
