/**
 * ServiceAccounts: stored as given (no token controller runs, as in envtest); an immediate delete
 * answers with the deleted object.
 */
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

export class ServiceAccountStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'ServiceAccount';
  readonly plural = 'serviceaccounts';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['sa'];
  override readonly returnDeletedObject = true;

  override generationChanged(): boolean {
    return false;
  }
}
