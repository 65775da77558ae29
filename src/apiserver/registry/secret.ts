/**
 * Secrets: `type` defaults to `Opaque`; `stringData` is merged into base64 `data` on write and never
 * stored or returned; keys validated like ConfigMaps; `immutable` freezes data and type.
 * Invariant: no error names a value of `data` or `stringData` — a body whose maps are not maps of
 * strings is refused before validation with the Go decoder's words, which name only the JSON kind.
 */
import { SecretResource, type KubeObject } from '../../meta/index.js';
import { badRequest, fieldCause, type FieldCause } from '../ground/index.js';
import { goJsonKind } from '../go-json-kind.js';
import { dataKeyCauses, immutableCauses } from './configmap.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

/** Go types of the two maps: `map[string]string` and `map[string][]byte` (printed `[]uint8`). */
const MAP_FIELDS = [
  ['stringData', 'string'],
  ['data', '[]uint8'],
] as const;

/** `stringData` after `checkDecodable`: strings, or null, which Go decodes to "" in a string map. */
function foldStringData(obj: KubeObject): void {
  const sd = obj.stringData;
  if (sd && typeof sd === 'object') {
    const data = { ...(obj.data as Record<string, string> | undefined) };
    for (const [k, v] of Object.entries(sd as Record<string, string | null>)) data[k] = Buffer.from(v ?? '', 'utf8').toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
}

const { text, count, name, age } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for Secrets. */
const secretPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'integer', 'Data contains the secret data.'),
    ageColumn(),
  ],
  cells: (o, now) => [name(o), text(o['type'], 'Opaque'), count(o['data']), age(o, now)],
};

export class SecretStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Secret';
  override readonly printer = secretPrinter;
  readonly plural = 'secrets';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  protected override readonly fields = { type: (o: KubeObject) => o.type };

  /** `data` and `stringData` must decode into Go's string maps: a 400 naming the field and JSON kind, never the value. */
  override checkDecodable(obj: KubeObject): void {
    super.checkDecodable(obj);
    for (const [field, elem] of MAP_FIELDS) {
      const m = obj[field];
      if (m === undefined || m === null) continue;
      if (typeof m !== 'object' || Array.isArray(m)) throw this.#undecodable(obj, goJsonKind(m), field, `map[string]${elem}`);
      for (const v of Object.values(m)) if (v !== null && typeof v !== 'string') throw this.#undecodable(obj, goJsonKind(v), field, elem);
    }
  }

  #undecodable(obj: KubeObject, kind: string, field: string, type: string) {
    const version = String(obj.apiVersion ?? 'v1');
    return badRequest(
      `Secret in version "${version}" cannot be handled as a Secret: json: cannot unmarshal ${kind} into Go struct field Secret.${field} of type ${type}`,
    );
  }

  override prepareForCreate(obj: KubeObject): void {
    foldStringData(obj);
    obj.type ??= 'Opaque';
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    foldStringData(obj);
    obj.type ??= old.type;
  }

  override generationChanged(): boolean {
    return false;
  }

  override validate(obj: KubeObject): FieldCause[] {
    const out = dataKeyCauses([['data', obj.data]]);
    for (const [k, v] of Object.entries((obj.data as Record<string, unknown> | undefined) ?? {})) {
      if (typeof v === 'string' && !/^[A-Za-z0-9+/]*={0,2}$/.test(v))
        out.push(fieldCause.invalid(`data[${k}]`, '<secret contents redacted>', 'must be base64 encoded'));
    }
    return out;
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    const out = [...this.validate(obj), ...immutableCauses(obj, old, ['data'])];
    if (obj.type !== old.type) out.push(fieldCause.invalid('type', obj.type, 'field is immutable'));
    return out;
  }
}

/** Secrets. */
export const secretKind: BuiltinKind = {
  strategy: () => new SecretStrategy(),
  resource: SecretResource,
  protobuf: { message: 'Secret' },
  bodies: [],
};
