/**
 * A provider's own small informer over the hub (e.g. labelled Secrets in one namespace), so a provider
 * never depends on how the local manager's cache is configured and holds only the objects it reads.
 * Handlers run in event order; one that throws is logged by the informer and the others go on.
 */
import type { KubeObject, ResourceDescriptor, Clock, Logger } from '../../meta/index.js';
import type { Client } from '../../client/index.js';
import { createListerWatcher, createSharedIndexInformer, type ResourceEventHandler } from '../../cache/index.js';

/** What to watch: a kind in one namespace (or all), filtered by a label selector. */
export interface WatchObjectsOptions<T extends KubeObject> {
  client: Client;
  resource: ResourceDescriptor<T>;
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  clock: Clock;
  logger: Logger;
}

/** Delivers the objects' events to `handler` until `signal` aborts; resolves then. */
export async function watchObjects<T extends KubeObject>(
  o: WatchObjectsOptions<T>,
  handler: ResourceEventHandler<T>,
  signal: AbortSignal,
): Promise<void> {
  const informer = createSharedIndexInformer<T>({
    listerWatcher: createListerWatcher({ client: o.client, resource: o.resource, namespace: o.namespace, labelSelector: o.labelSelector }),
    name: `fleet provider: ${o.resource.kind}`,
    clock: o.clock,
    logger: o.logger,
  });
  informer.addEventHandler(handler);
  await informer.run(signal);
}
