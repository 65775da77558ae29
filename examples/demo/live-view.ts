/**
 * The demo's live view: one line per visible change of a WebApp or an ApplicationRoute, so a person
 * can follow each object converging (`webapp default/shop  Ready=False ReplicasNotReady 1/3` …
 * `Ready=True AllReplicasReady 3/3`). It listens on the manager's shared informers — the same cache
 * the operators read — and prints a line only when an object's one-line summary changes, so status
 * writes that change nothing visible (and resyncs) stay quiet.
 */
import type { KubeObject, ResourceDescriptor } from 'kube-converge/meta';
import { deletedObject } from 'kube-converge/cache';
import type { Manager } from 'kube-converge/manager';
import { WebApp } from '../webapp/types.js';
import { ApplicationRoute } from '../application-route/types.js';

export interface LiveViewOptions {
  /** Where lines go; default stdout. */
  write?: (line: string) => void;
  /** Time origin of the `+1.23s` prefix; default now. */
  startedAtMs?: number;
}

interface Conditioned extends KubeObject {
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
}

const condition = (obj: Conditioned, type: string) => obj.status?.conditions?.find((c) => c.type === type);

/** `Ready=True AllReplicasReady 3/3`: readiness, why, and how many replicas are ready of how many wanted. */
export function webAppSummary(
  app: KubeObject & { spec: { replicas?: number }; status?: { readyReplicas?: number; observedGeneration?: number } } & Conditioned,
): string {
  const ready = condition(app, 'Ready');
  const counts = `${app.status?.readyReplicas ?? 0}/${app.spec.replicas ?? 1}`;
  if (!ready) return `Ready=Unknown (no status yet) ${counts}`;
  // Between a spec change and the operator's next status write, the status still describes the old spec.
  const stale =
    app.status?.observedGeneration !== app.metadata.generation ? ` (generation ${app.metadata.generation} not observed yet)` : '';
  return `Ready=${ready.status} ${ready.reason ?? ''} ${counts}${stale}`;
}

/** `Ready=False ServiceNotFound`: readiness and, while not ready, the dependency it waits for. */
export function routeSummary(route: Conditioned): string {
  const ready = condition(route, 'Ready');
  if (!ready) return 'Ready=Unknown (no status yet)';
  const deps = condition(route, 'DependenciesReady');
  const why = ready.status !== 'True' && deps?.status === 'False' ? deps.reason : ready.reason;
  return `Ready=${ready.status} ${why ?? ''}`;
}

/** Registers the view's handlers on `mgr`'s informers. Call before `mgr.start()`. */
export async function startLiveView(mgr: Manager, options: LiveViewOptions = {}): Promise<void> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const t0 = options.startedAtMs ?? mgr.clock.now();
  const follow = async <T extends KubeObject>(resource: ResourceDescriptor<T>, label: string, summary: (obj: T) => string) => {
    const last = new Map<string, string>();
    const show = (obj: T, text: string): void => {
      const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
      if (last.get(key) === text) return;
      last.set(key, text);
      const elapsed = `+${((mgr.clock.now() - t0) / 1000).toFixed(2)}s`.padStart(8);
      write(`${elapsed}  ${label.padEnd(6)} ${key.padEnd(22)} ${text}`);
    };
    const informer = await mgr.getInformer(resource);
    informer.addEventHandler(
      {
        onAdd: (obj) => show(obj, summary(obj)),
        onUpdate: (_old, obj) =>
          show(obj, obj.metadata.deletionTimestamp ? `deleting (finalizers: ${obj.metadata.finalizers?.join(', ') ?? ''})` : summary(obj)),
        onDelete: (obj) => show(deletedObject(obj), 'deleted'),
      },
      { name: `live-view-${label}` },
    );
  };
  await follow(WebApp, 'webapp', webAppSummary);
  await follow(ApplicationRoute, 'route', routeSummary);
}
