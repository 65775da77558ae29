/**
 * A second kind of the ApiKey operator, written schema first as `converge init` and
 * `converge create api` write every kind: its TypeBox schemas are the one source of its types, its
 * resource descriptor and its CRD (`Backup.crd()`), so there is no YAML to keep in step.
 */
import { Type, type Static } from 'typebox';
import { Conditions, defineCustomResource } from 'kube-converge/schema';

export const BackupSpec = Type.Object({
  schedule: Type.String({ minLength: 1, description: 'When to back up, in cron syntax.' }),
});
export type BackupSpec = Static<typeof BackupSpec>;

export const BackupStatus = Type.Object({
  observedGeneration: Type.Optional(Type.Integer()),
  conditions: Type.Optional(Conditions()),
});

export const Backup = defineCustomResource({
  group: 'tutorial.converge.dev',
  kind: 'Backup',
  scope: 'Namespaced',
  versions: {
    v1alpha1: { served: true, storage: true, spec: BackupSpec, status: BackupStatus, subresources: { status: true } },
  },
});
