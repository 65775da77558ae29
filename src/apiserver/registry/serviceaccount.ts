/**
 * ServiceAccounts: stored as given (no token controller runs, as in envtest); an immediate delete
 * answers with the deleted object.
 */
import { ServiceAccountResource } from '../../meta/index.js';
import type { ServedResource } from '../served-resource.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

const { list, name, age } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for ServiceAccounts. */
const serviceAccountPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column(
      'Secrets',
      'string',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
    ),
    ageColumn(),
  ],
  cells: (o, now) => [name(o), list(o['secrets']).length, age(o, now)],
};

export class ServiceAccountStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'ServiceAccount';
  override readonly printer = serviceAccountPrinter;
  readonly plural = 'serviceaccounts';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['sa'];
  override readonly returnDeletedObject = true;

  /** `serviceaccounts/token` (POST only) is served too. */
  override served(version: string): ServedResource {
    const r = super.served(version);
    r.subresources = [
      ...r.subresources,
      { name: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] },
    ];
    return r;
  }

  override generationChanged(): boolean {
    return false;
  }
}

/** ServiceAccounts, whose `token` subresource takes a TokenRequest. */
export const serviceAccountKind: BuiltinKind = {
  strategy: () => new ServiceAccountStrategy(),
  resource: ServiceAccountResource,
  protobuf: { message: 'ServiceAccount' },
  bodies: [{ subresource: 'token', apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', message: 'TokenRequest' }],
};
