// Face of the cluster providers: a static list, namespaces as clusters, kubeconfig Secrets in a hub,
// and kubeconfig files in a folder.
export { staticProvider } from './static.js';
export type { StaticCluster } from './static.js';
export { namespacesProvider } from './namespaces.js';
export type { NamespacesProviderOptions } from './namespaces.js';
export { kubeconfigSecretsProvider, KUBECONFIG_SECRET_LABEL } from './kubeconfig-secrets.js';
export type { KubeconfigSecretsProviderOptions } from './kubeconfig-secrets.js';
export { kubeconfigFolderProvider } from './kubeconfig-folder.js';
export type { KubeconfigFolderProviderOptions } from './kubeconfig-folder.js';
