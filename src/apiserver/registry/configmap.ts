/**
 * ConfigMaps: namespaced, no generation, `data`/`binaryData` with valid distinct keys, and
 * `immutable: true` freezing the contents (later changes → 422).
 */
import { ConfigMapResource, jsonEqual, type KubeObject } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** Keys of ConfigMap/Secret data maps (`IsConfigMapKey`). */
export function dataKeyCauses(maps: [string, unknown][]): FieldCause[] {
  const out: FieldCause[] = [];
  const seen = new Set<string>();
  for (const [field, m] of maps) {
    if (m === undefined || m === null) continue;
    if (typeof m !== 'object' || Array.isArray(m)) {
      out.push(fieldCause.invalid(field, m, 'must be a map of strings'));
      continue;
    }
    for (const [k, v] of Object.entries(m)) {
      if (!CONFIG_KEY.test(k) || k.length > 253) {
        out.push(
          fieldCause.invalid(
            field,
            k,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      }
      if (typeof v !== 'string') out.push(fieldCause.invalid(`${field}[${k}]`, v, 'must be a string'));
      if (seen.has(k)) out.push(fieldCause.invalid(field, k, 'duplicate of key present in another map'));
      seen.add(k);
    }
  }
  return out;
}

/** The immutable-contents rule shared by ConfigMaps and Secrets. */
export function immutableCauses(obj: KubeObject, old: KubeObject, fields: string[]): FieldCause[] {
  if (old.immutable !== true) return [];
  const out: FieldCause[] = [];
  if (obj.immutable !== true) out.push(fieldCause.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    if (!jsonEqual(obj[f], old[f])) out.push(fieldCause.forbidden(f, 'field is immutable when `immutable` is set'));
  }
  return out;
}

const { count, name, age } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for ConfigMaps. */
const configMapPrinter: TablePrinter = {
  columns: [nameColumn(), column('Data', 'integer', 'Data contains the configuration data.'), ageColumn()],
  cells: (o, now) => [name(o), count(o['data']) + count(o['binaryData']), age(o, now)],
};

export class ConfigMapStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'ConfigMap';
  override readonly printer = configMapPrinter;
  readonly plural = 'configmaps';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['cm'];

  override validate(obj: KubeObject): FieldCause[] {
    return dataKeyCauses([
      ['data', obj.data],
      ['binaryData', obj.binaryData],
    ]);
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    return [...this.validate(obj), ...immutableCauses(obj, old, ['data', 'binaryData'])];
  }

  override generationChanged(): boolean {
    return false;
  }
}

/** ConfigMaps. */
export const configMapKind: BuiltinKind = {
  strategy: () => new ConfigMapStrategy(),
  resource: ConfigMapResource,
  protobuf: { message: 'ConfigMap' },
  bodies: [],
};
