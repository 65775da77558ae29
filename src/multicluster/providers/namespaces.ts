/**
 * Namespaces as clusters, for tests and soft multi-tenancy: every namespace of the hub that matches a
 * label selector is a cluster named after it, whose cache holds only that namespace's objects and
 * whose client is the hub's. A namespace that stops matching, or is deleted, is disengaged; one whose
 * labels change is engaged again, so cluster filters see the new labels.
 */
import { NamespaceResource, parseLabelSelector, type ObjectOf } from '../../meta/index.js';

type Namespace = ObjectOf<typeof NamespaceResource>;
import type { Client } from '../../client/index.js';
import { isDeletedFinalStateUnknown } from '../../cache/index.js';
import type { ClusterProvider, ClusterSink } from '../provider.js';
import { watchObjects } from './watch-objects.js';

/** Options of `namespacesProvider`. */
export interface NamespacesProviderOptions {
  /** The hub's client: namespace clusters read and write through it. */
  client: Client;
  /** Which namespaces are clusters (default: all). */
  labelSelector?: string;
}

/** Engages every (matching) namespace of the hub as a cluster of its own name. */
export function namespacesProvider(options: NamespacesProviderOptions): ClusterProvider {
  const selector = parseLabelSelector(options.labelSelector ?? '');
  return {
    toString: () => `namespaces${options.labelSelector ? ` matching ${options.labelSelector}` : ''}`,
    async run(sink: ClusterSink, signal: AbortSignal): Promise<void> {
      const log = sink.local.logger.child({ component: 'fleet-provider' });
      const engaged = new Map<string, string>(); // name → its labels as JSON
      const engage = (ns: Namespace): void => {
        const name = ns.metadata.name ?? '';
        const labels = ns.metadata.labels ?? {};
        const key = JSON.stringify(labels);
        if (engaged.get(name) === key) return;
        engaged.set(name, key);
        sink
          .engage(name, { client: options.client, labels, cache: { defaults: { namespaces: [name] } } })
          .catch((err: unknown) => log.error({ err, cluster: name }, 'namespace not engaged'));
      };
      const disengage = (name: string): void => {
        if (!engaged.delete(name)) return;
        void sink.disengage(name);
      };
      await watchObjects(
        {
          client: options.client,
          resource: NamespaceResource,
          labelSelector: options.labelSelector,
          clock: sink.local.clock,
          logger: log,
        },
        {
          onAdd: (ns) => engage(ns),
          // The server filters by the selector; the check here also covers a namespace whose labels
          // stopped matching, which a watch reports as a deletion anyway.
          onUpdate: (_old, ns) => (selector.matches(ns.metadata.labels) ? engage(ns) : disengage(ns.metadata.name ?? '')),
          onDelete: (ns) => disengage((isDeletedFinalStateUnknown(ns) ? ns.obj : ns).metadata.name ?? ''),
        },
        signal,
      );
    },
  };
}
