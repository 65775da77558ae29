/**
 * TEST AND DEMO SUPPORT — NOT PART OF THE OPERATOR. The local API server stores Deployments but, like
 * envtest, runs no Pods, so no Deployment ever reports ready replicas by itself. This tiny controller
 * plays the part of the Deployment controller and the kubelets: it moves each Deployment's status
 * toward its spec one replica per step, so readiness can be shown end to end. Never run it against a
 * real cluster; it would write fake status over the real controller's.
 *
 * Behaviour: each step reads the Deployment from the server (see the reconciler). A new generation is observed at once (`observedGeneration`; `updatedReplicas` restarts
 * from 0 when the pod template changed); then every `stepMs` one more replica becomes updated, ready and
 * available, until all `spec.replicas` are. Scaling down is immediate. It watches only generation
 * changes and paces itself with `requeueAfter`, so its own status writes do not wake it.
 */
import { DeploymentResource, keyOf, type ObjectOf } from 'kube-converge/meta';
import { controllerManagedBy, generationChangedPredicate } from 'kube-converge/controller';
import { ignoreNotFound } from 'kube-converge/client';
import type { Manager } from 'kube-converge/manager';

type Deployment = ObjectOf<typeof DeploymentResource>;
type DeploymentStatus = NonNullable<Deployment['status']>;

export interface DeploymentSimulatorOptions {
  /** Time for one more replica to become ready; default 100 ms. */
  stepMs?: number;
  /** Controller name; default `deployment-simulator`. */
  name?: string;
  /** Deployments stepped at once; default 1. Thousands of Deployments need more than one worker. */
  maxConcurrentReconciles?: number;
}

/**
 * The status one step further than the Deployment's current one (pure). `templateChanged` says the
 * pod template differs from the one the current replicas run, which restarts the rollout.
 */
export function nextSimulatedStatus(deployment: Deployment, templateChanged: boolean): DeploymentStatus {
  const desired = deployment.spec?.replicas ?? 1;
  const generation = deployment.metadata.generation ?? 1;
  const s = deployment.status ?? {};
  // A new generation is observed first, before any replica moves, as the real controller does.
  if ((s.observedGeneration ?? 0) !== generation) {
    return {
      observedGeneration: generation,
      replicas: Math.min(s.replicas ?? 0, desired),
      updatedReplicas: templateChanged ? 0 : Math.min(s.updatedReplicas ?? 0, desired),
      readyReplicas: Math.min(s.readyReplicas ?? 0, desired),
      availableReplicas: Math.min(s.availableReplicas ?? 0, desired),
    };
  }
  const step = (n: number | undefined): number => Math.min((n ?? 0) + 1, desired);
  return {
    observedGeneration: generation,
    replicas: step(s.replicas),
    updatedReplicas: step(s.updatedReplicas),
    readyReplicas: step(s.readyReplicas),
    availableReplicas: step(s.availableReplicas),
  };
}

function settled(deployment: Deployment): boolean {
  const desired = deployment.spec?.replicas ?? 1;
  const s = deployment.status ?? {};
  return (
    s.observedGeneration === (deployment.metadata.generation ?? 1) &&
    s.replicas === desired &&
    s.updatedReplicas === desired &&
    s.readyReplicas === desired &&
    s.availableReplicas === desired
  );
}

/** Registers the simulator on `mgr`. Test and demo support only: see the file's header. */
export function setupDeploymentSimulator(mgr: Manager, options: DeploymentSimulatorOptions = {}): void {
  const stepMs = options.stepMs ?? 100;
  // The template each Deployment's replicas run, standing in for ReplicaSets (lost on restart: demo support).
  const running = new Map<string, string>();
  controllerManagedBy(mgr)
    .named(options.name ?? 'deployment-simulator')
    .for(DeploymentResource, { predicates: [generationChangedPredicate] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1 })
    .complete(async (req, { client, signal }) => {
      const key = keyOf(req);
      // Read from the server, not the cache: a step computed from a cached copy older than the last
      // status written here would move the replicas back and forth (each a real write, each waking
      // the WebApp operator), which is what 10,000 WebApps at once showed.
      const deployment = await mgr.apiReader.get(DeploymentResource, req, { signal }).catch(ignoreNotFound);
      if (!deployment || deployment.metadata.deletionTimestamp) {
        running.delete(key);
        return;
      }
      if (settled(deployment)) return;
      const template = JSON.stringify(deployment.spec?.template ?? {});
      const templateChanged = running.has(key) && running.get(key) !== template;
      running.set(key, template);
      const status = nextSimulatedStatus(deployment, templateChanged);
      await client.status().patch(DeploymentResource, req, { status }, 'merge', { signal });
      return { requeueAfter: stepMs };
    });
}
