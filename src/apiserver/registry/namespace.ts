/**
 * Namespaces: cluster-scoped, DNS-1123 label names, `spec.finalizers: [kubernetes]`, the
 * `kubernetes.io/metadata.name` label and `status.phase` (`Active`, then `Terminating` once deleted).
 * Deletion itself lives in the namespace lifecycle, not here.
 */
import { NamespaceResource, type KubeObject } from '../../meta/index.js';
import type { ServedResource } from '../served-resource.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

export const NAME_LABEL = 'kubernetes.io/metadata.name';

const { at, text, name, age } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for Namespaces. */
const namespacePrinter: TablePrinter = {
  columns: [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()],
  cells: (o, now) => [name(o), text(at(o, 'status', 'phase')), age(o, now)],
};

export class NamespaceStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Namespace';
  override readonly printer = namespacePrinter;
  readonly plural = 'namespaces';
  readonly namespaced = false;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];
  override readonly shortNames = ['ns'];
  override readonly nameRule = 'label' as const;
  override readonly allowDeleteCollection = false;
  override readonly returnDeletedObject = true;
  protected override readonly fields = { 'status.phase': (o: KubeObject) => (o.status as { phase?: string } | undefined)?.phase };

  override prepareForCreate(obj: KubeObject): void {
    obj.spec = { ...(obj.spec as object | undefined), finalizers: ['kubernetes'] };
    obj.status = { phase: 'Active' };
    this.#label(obj);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    obj.spec = old.spec;
    obj.status = old.status;
    this.#label(obj);
  }

  #label(obj: KubeObject): void {
    obj.metadata.labels = { ...obj.metadata.labels, [NAME_LABEL]: obj.metadata.name! };
  }

  /** Namespaces also serve `finalize` (PUT only), through which the namespace controller clears `spec.finalizers`. */
  override served(version: string): ServedResource {
    const r = super.served(version);
    r.subresources = [...r.subresources, { name: 'finalize', responseKind: { group: '', version, kind: 'Namespace' }, verbs: ['update'] }];
    return r;
  }

  /** The namespace lifecycle clears `spec.finalizers` through `finalize` once the namespace is empty; until then it stays. */
  override holdsDeletion(obj: KubeObject): boolean {
    return ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0;
  }

  override generationChanged(): boolean {
    return false;
  }

  override validate(obj: KubeObject): FieldCause[] {
    const phase = (obj.status as { phase?: string } | undefined)?.phase;
    if (phase !== undefined && phase !== 'Active' && phase !== 'Terminating') {
      return [fieldCause.notSupported('status.phase', phase, ['Active', 'Terminating'])];
    }
    return [];
  }
}

/** Namespaces, with their `finalize` subresource. */
export const namespaceKind: BuiltinKind = {
  strategy: () => new NamespaceStrategy(),
  resource: NamespaceResource,
  protobuf: { message: 'Namespace' },
  bodies: [],
};
