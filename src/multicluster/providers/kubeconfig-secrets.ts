/**
 * Clusters from kubeconfig Secrets in a hub namespace (multicluster-runtime's kubeconfig provider):
 * every Secret there with the provider's label is a cluster named after the Secret, reached through
 * the kubeconfig in its data key, labelled with the Secret's labels. A changed kubeconfig engages the
 * cluster again; a deleted Secret disengages it; a kubeconfig that cannot be read is logged with the
 * Secret's name and the cluster stays as it was (engaged with its old kubeconfig, or not at all).
 */
import { SecretResource, type ObjectOf } from '../../meta/index.js';
import { parseKubeConfig, type Client } from '../../client/index.js';
import { isDeletedFinalStateUnknown } from '../../cache/index.js';
import type { ClusterProvider, ClusterSink } from '../provider.js';
import { watchObjects } from './watch-objects.js';

type Secret = ObjectOf<typeof SecretResource>;

/** The label that marks a Secret as a cluster's kubeconfig, unless the provider is given another selector. */
export const KUBECONFIG_SECRET_LABEL = 'multicluster.converge.dev/kubeconfig';

/** Options of `kubeconfigSecretsProvider`. */
export interface KubeconfigSecretsProviderOptions {
  /** The hub's client, to watch the Secrets. */
  client: Client;
  /** The namespace holding the Secrets. */
  namespace: string;
  /** Which Secrets are clusters; default `multicluster.converge.dev/kubeconfig=true`. */
  labelSelector?: string;
  /** The data key holding the kubeconfig; default `kubeconfig`. */
  key?: string;
}

/** Engages a cluster per labelled kubeconfig Secret in `namespace`. */
export function kubeconfigSecretsProvider(options: KubeconfigSecretsProviderOptions): ClusterProvider {
  const key = options.key ?? 'kubeconfig';
  const labelSelector = options.labelSelector ?? `${KUBECONFIG_SECRET_LABEL}=true`;
  return {
    toString: () => `kubeconfig secrets in ${options.namespace} (${labelSelector})`,
    async run(sink: ClusterSink, signal: AbortSignal): Promise<void> {
      const log = sink.local.logger.child({ component: 'fleet-provider' });
      const engaged = new Map<string, string>(); // Secret name → the kubeconfig it was engaged with
      const engage = (secret: Secret): void => {
        const name = secret.metadata.name ?? '';
        const data = secret.data?.[key];
        if (data === undefined) {
          log.error(
            { cluster: name, key },
            `Secret ${options.namespace}/${name} has no data key ${JSON.stringify(key)}; cluster not engaged`,
          );
          return;
        }
        const kubeconfig = Buffer.from(data, 'base64').toString('utf8');
        const labelsKey = JSON.stringify(secret.metadata.labels ?? {});
        if (engaged.get(name) === kubeconfig + labelsKey) return;
        let config;
        try {
          // Credentials must be inline: a Secret's kubeconfig has no folder for relative paths.
          config = parseKubeConfig({ text: kubeconfig, origin: `Secret ${options.namespace}/${name}`, clock: sink.local.clock });
        } catch (err) {
          log.error({ err, cluster: name }, `Secret ${options.namespace}/${name} holds no usable kubeconfig; cluster left as it was`);
          return;
        }
        engaged.set(name, kubeconfig + labelsKey);
        sink
          .engage(name, { config, labels: secret.metadata.labels ?? {} })
          .catch((err: unknown) => log.error({ err, cluster: name }, 'cluster not engaged'));
      };
      const disengage = (name: string): void => {
        if (engaged.delete(name)) void sink.disengage(name);
      };
      await watchObjects(
        {
          client: options.client,
          resource: SecretResource,
          namespace: options.namespace,
          labelSelector,
          clock: sink.local.clock,
          logger: log,
        },
        {
          onAdd: (s) => engage(s),
          onUpdate: (_old, s) => engage(s),
          onDelete: (s) => disengage((isDeletedFinalStateUnknown(s) ? s.obj : s).metadata.name ?? ''),
        },
        signal,
      );
    },
  };
}
