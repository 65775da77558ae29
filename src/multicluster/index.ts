// Public face of the multicluster layer: a fleet of member clusters engaged at run time by a provider,
// multi-cluster controllers whose requests carry the cluster, and the providers that find clusters.
export { Fleet } from './fleet.js';
export type { FleetOptions, FleetListener } from './fleet.js';
export type { Cluster, ClusterRequest } from './cluster.js';
export type { ClusterConnection, ClusterProvider, ClusterSink } from './provider.js';
export { fleetControllerManagedBy, FleetBuilder } from './builder.js';
export type { FleetReconciler, FleetReconcileContext } from './builder.js';
export { fleetSource } from './fleet-source.js';
export type { FleetSourceOptions } from './fleet-source.js';
export {
  staticProvider,
  namespacesProvider,
  kubeconfigSecretsProvider,
  kubeconfigFolderProvider,
  KUBECONFIG_SECRET_LABEL,
} from './providers/index.js';
export type {
  StaticCluster,
  NamespacesProviderOptions,
  KubeconfigSecretsProviderOptions,
  KubeconfigFolderProviderOptions,
} from './providers/index.js';
