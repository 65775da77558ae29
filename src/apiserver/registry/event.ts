/**
 * Events: core/v1 `Event` (with its field selectors on involvedObject, reason, source, type) and
 * events.k8s.io/v1 `Event`, two views of one storage as on a real cluster, so an Event written
 * through either group is read through both. The events.k8s.io view renames fields
 * (`note`↔`message`, `regarding`↔`involvedObject`, `reportingController`↔`reportingComponent`,
 * `deprecated*`↔the legacy timestamps, count and source). Nothing expires Events (the real server's
 * one-hour TTL is not reproduced).
 */
import type { KubeObject } from '../../meta/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

type Obj = Record<string, unknown>;
const io = (o: KubeObject): Obj => (o.involvedObject ?? {}) as Obj;

/** events.k8s.io/v1 field ← core/v1 field. */
const RENAMES: [string, string][] = [
  ['regarding', 'involvedObject'], ['note', 'message'], ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'], ['deprecatedFirstTimestamp', 'firstTimestamp'], ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: KubeObject, pairs: [string, string][], apiVersion: string): KubeObject {
  const out: KubeObject = { ...obj, apiVersion, kind: 'Event' };
  for (const [to, from] of pairs) {
    const v = out[from];
    delete out[from];
    if (v !== undefined) out[to] = v;
  }
  return out;
}

export class CoreEventStrategy extends Strategy {
  readonly group = '';
  readonly kind = 'Event';
  readonly plural = 'events';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['ev'];
  protected override readonly fields = {
    'involvedObject.kind': (o: KubeObject) => io(o).kind,
    'involvedObject.namespace': (o: KubeObject) => io(o).namespace,
    'involvedObject.name': (o: KubeObject) => io(o).name,
    'involvedObject.uid': (o: KubeObject) => io(o).uid,
    'involvedObject.apiVersion': (o: KubeObject) => io(o).apiVersion,
    'involvedObject.resourceVersion': (o: KubeObject) => io(o).resourceVersion,
    'involvedObject.fieldPath': (o: KubeObject) => io(o).fieldPath,
    reason: (o: KubeObject) => o.reason,
    reportingComponent: (o: KubeObject) => o.reportingComponent,
    source: (o: KubeObject) => (o.source as Obj | undefined)?.component,
    type: (o: KubeObject) => o.type,
  };

  override generationChanged(): boolean {
    return false;
  }
}

export class EventsV1Strategy extends Strategy {
  readonly group = 'events.k8s.io';
  readonly kind = 'Event';
  readonly plural = 'events';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['ev'];
  protected override readonly fields = {
    'regarding.kind': (o: KubeObject) => io(o).kind,
    'regarding.namespace': (o: KubeObject) => io(o).namespace,
    'regarding.name': (o: KubeObject) => io(o).name,
    'regarding.uid': (o: KubeObject) => io(o).uid,
    reason: (o: KubeObject) => o.reason,
    reportingController: (o: KubeObject) => o.reportingComponent,
    type: (o: KubeObject) => o.type,
  };

  override get storageId(): string {
    return '/events';
  }

  override toExternal(obj: KubeObject): KubeObject {
    return rename(obj, RENAMES, 'events.k8s.io/v1');
  }

  override toInternal(obj: KubeObject): KubeObject {
    return rename(obj, RENAMES.map(([a, b]) => [b, a]), 'v1');
  }

  override generationChanged(): boolean {
    return false;
  }
}
