/**
 * Leases (coordination.k8s.io/v1): what leader election relies on. A PUT without resourceVersion is
 * rejected (422) and a PUT to a missing Lease creates it, exactly as the real strategy allows;
 * MicroTime fields are stored as sent.
 */
import { LeaseResource, type KubeObject } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

const { at, text, name, age } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for Leases. */
const leasePrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'),
    ageColumn(),
  ],
  cells: (o, now) => [name(o), text(at(o, 'spec', 'holderIdentity')), age(o, now)],
};

export class LeaseStrategy extends Strategy {
  readonly group = 'coordination.k8s.io';
  readonly kind = 'Lease';
  override readonly printer = leasePrinter;
  readonly plural = 'leases';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly allowUnconditionalUpdate = false;
  override readonly allowCreateOnUpdate = true;

  override generationChanged(): boolean {
    return false;
  }

  override validate(obj: KubeObject): FieldCause[] {
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    const out: FieldCause[] = [];
    for (const f of ['leaseDurationSeconds', 'leaseTransitions'] as const) {
      const v = spec[f];
      if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isInteger(v) || v < (f === 'leaseDurationSeconds' ? 1 : 0))) {
        out.push(
          fieldCause.invalid(
            `spec.${f}`,
            v,
            f === 'leaseDurationSeconds' ? 'must be greater than 0' : 'must be greater than or equal to 0',
          ),
        );
      }
    }
    return out;
  }
}

/** Leases (leader election writes them through typed clients, so as protobuf when configured to). */
export const leaseKind: BuiltinKind = {
  strategy: () => new LeaseStrategy(),
  resource: LeaseResource,
  protobuf: { message: 'Lease' },
  bodies: [],
};
