import { ConfigMapResource, SecretResource } from 'kube-converge/meta';
import { controllerManagedBy } from 'kube-converge/controller';
import { createOrPatch, setControllerReference, type Manager } from 'kube-converge/manager';

export const LABEL = 'converge.dev/copy-to-secret';

/** Keeps a Secret with the same data next to every ConfigMap labelled `converge.dev/copy-to-secret=true`. */
export function setupCopyToSecret(mgr: Manager): void {
  controllerManagedBy(mgr)
    .for(ConfigMapResource) // a ConfigMap changed: reconcile it
    .owns(SecretResource) // a Secret it controls changed (or vanished): reconcile its ConfigMap
    .complete(async (req, { client, signal }) => {
      const cm = client.get(ConfigMapResource, req); // from the cache: frozen, no network; undefined once deleted
      if (!cm || cm.metadata.labels?.[LABEL] !== 'true') return;
      const data = Object.fromEntries(Object.entries(cm.data ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      // Reads the Secret named like the ConfigMap, lets us change a copy, and writes only if something changed.
      await createOrPatch(
        client,
        SecretResource,
        { metadata: { ...req } },
        (secret) => {
          setControllerReference(cm, secret); // the garbage collector deletes it with the ConfigMap
          secret.data = data;
        },
        { signal },
      );
    });
}
