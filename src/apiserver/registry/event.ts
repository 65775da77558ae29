/**
 * Events: core/v1 `Event` (with its field selectors on involvedObject, reason, source, type) and
 * events.k8s.io/v1 `Event`. Stored as written; nothing expires them (the real server's one-hour TTL
 * is not reproduced). The two API groups are stored separately here.
 */
import type { KubeObject } from '../../meta/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';

type Obj = Record<string, unknown>;
const io = (o: KubeObject): Obj => (o.involvedObject ?? {}) as Obj;

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

  override generationChanged(): boolean {
    return false;
  }
}
