/**
 * The FleetConfig API (`fleet.converge.dev/v1alpha1`), defined schema-first: a ConfigMap, written in
 * the hub, to be propagated to every member cluster whose labels match `clusterSelector`, with a status
 * entry per member saying which generation it holds or why it does not.
 */
import type { ObjectOf } from 'kube-converge/meta';
import { Conditions, defineCustomResource, listMap } from 'kube-converge/schema';
import { Type, type Static } from 'typebox';

const FleetConfigSpec = Type.Object({
  /** Members whose labels include all of these get the ConfigMap; absent or empty: every member. */
  clusterSelector: Type.Optional(Type.Object({ matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())) })),
  /** The ConfigMap written in each selected member. */
  configMap: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 253 }),
    namespace: Type.String({ minLength: 1, maxLength: 63 }),
    data: Type.Optional(Type.Record(Type.String(), Type.String())),
  }),
});
export type FleetConfigSpec = Static<typeof FleetConfigSpec>;

const ClusterStatus = Type.Object({
  name: Type.String(),
  /** The FleetConfig generation the member holds, once written there. */
  syncedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  /** Why the last attempt failed (absent once it succeeds). */
  lastError: Type.Optional(Type.String()),
});
export type ClusterStatus = Static<typeof ClusterStatus>;

const FleetConfigStatus = Type.Object({
  observedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  clusters: Type.Optional(listMap(Type.Array(ClusterStatus), ['name'])),
  conditions: Type.Optional(Conditions()),
});
export type FleetConfigStatus = Static<typeof FleetConfigStatus>;

export const FleetConfig = defineCustomResource({
  group: 'fleet.converge.dev',
  kind: 'FleetConfig',
  scope: 'Namespaced',
  versions: {
    v1alpha1: {
      served: true,
      storage: true,
      spec: FleetConfigSpec,
      status: FleetConfigStatus,
      subresources: { status: true },
      printerColumns: [
        { name: 'ConfigMap', type: 'string', jsonPath: '.spec.configMap.name' },
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      ],
    },
  },
});
export type FleetConfig = ObjectOf<typeof FleetConfig>;
