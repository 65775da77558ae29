/**
 * Secrets: `type` defaults to `Opaque`; `stringData` is merged into base64 `data` on write and never
 * stored or returned; keys validated like ConfigMaps; `immutable` freezes data and type.
 */
import type { KubeObject } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../status.js';
import { dataKeyCauses, immutableCauses } from './configmap.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

function foldStringData(obj: KubeObject): void {
  const sd = obj.stringData;
  if (sd && typeof sd === 'object') {
    const data = { ...(obj.data as Record<string, string> | undefined) };
    for (const [k, v] of Object.entries(sd as Record<string, unknown>)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
}

export class SecretStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Secret';
  readonly plural = 'secrets';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  protected override readonly fields = { type: (o: KubeObject) => o.type };

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
      if (typeof v === 'string' && !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) out.push(fieldCause.invalid(`data[${k}]`, '<secret contents redacted>', 'must be base64 encoded'));
    }
    return out;
  }

  override validateUpdate(obj: KubeObject, old: KubeObject): FieldCause[] {
    const out = [...this.validate(obj), ...immutableCauses(obj, old, ['data'])];
    if (obj.type !== old.type) out.push(fieldCause.invalid('type', obj.type, 'field is immutable'));
    return out;
  }
}
