/**
 * The write pipeline's call into policy admission: the attributes of a create or update through
 * `scope`, admitted after the strategy's validation; warnings join the write's Warning headers.
 */
import type { KubeObject } from '../../meta/index.js';
import type { Scope } from '../context.js';
import { admitWithPolicies } from './admit.js';
import type { Operation } from './attributes.js';

export interface PolicyWrite {
  operation: Operation;
  object: KubeObject;
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  fieldManager: string;
  /** Where the write's warnings go. */
  warnings: string[];
}

export function admitWrite(scope: Scope, w: PolicyWrite): void {
  const { strategy } = scope;
  const options = {
    kind: w.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions',
    apiVersion: 'meta.k8s.io/v1',
    ...(w.dryRun ? { dryRun: ['All'] } : {}),
    fieldManager: w.fieldManager,
  };
  const r = admitWithPolicies(scope.ctx, {
    operation: w.operation,
    group: strategy.group,
    version: scope.version,
    kind: strategy.kind,
    resource: strategy.plural,
    subresource: scope.subresource,
    name: w.object.metadata.name ?? '',
    namespace: strategy.namespaced ? (w.object.metadata.namespace ?? '') : '',
    object: w.object,
    oldObject: w.oldObject,
    dryRun: w.dryRun,
    options,
  });
  w.warnings.push(...r.warnings);
}
