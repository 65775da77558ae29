/**
 * ServiceAccounts: stored as given (no token controller runs, as in envtest); an immediate delete
 * answers with the deleted object.
 */
import type { ServedResource } from '../served-resource.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

export class ServiceAccountStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'ServiceAccount';
  readonly plural = 'serviceaccounts';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['sa'];
  override readonly returnDeletedObject = true;

  /** `serviceaccounts/token` (POST only) is served too. */
  override served(version: string): ServedResource {
    const r = super.served(version);
    r.subresources = [...r.subresources, { name: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }];
    return r;
  }

  override generationChanged(): boolean {
    return false;
  }
}
