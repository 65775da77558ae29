/**
 * Events: core/v1 `Event` (with its field selectors on involvedObject, reason, source, type) and
 * events.k8s.io/v1 `Event`, two views of one storage as on a real cluster, so an Event written
 * through either group is read through both. The events.k8s.io view renames fields
 * (`note`↔`message`, `regarding`↔`involvedObject`, `reportingController`↔`reportingComponent`,
 * `deprecated*`↔the legacy timestamps, count and source). Nothing expires Events (the real server's
 * one-hour TTL is not reproduced).
 */
import { CoreEventResource, EventResource, type KubeObject } from '../../meta/index.js';
import { ageOf, cells, column, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

type Obj = Record<string, unknown>;
const io = (o: KubeObject): Obj => (o.involvedObject ?? {}) as Obj;

/** events.k8s.io/v1 field ← core/v1 field. */
const RENAMES: [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
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

const { at, text } = cells;

/** `kubectl get` columns, as kube-apiserver's printer for Events (both groups print alike). */
const eventPrinter: TablePrinter = {
  columns: [
    column('Last Seen', 'string', 'Time when latest event occurred'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    column(
      'Reason',
      'string',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column('Object', 'string', 'The object this Event is about.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
  ],
  cells: (ev, now) => {
    const ref = at(ev, 'involvedObject') ?? at(ev, 'regarding');
    const lastSeen =
      at(ev, 'series', 'lastObservedTime') ??
      at(ev, 'lastTimestamp') ??
      at(ev, 'deprecatedLastTimestamp') ??
      at(ev, 'eventTime') ??
      at(ev, 'metadata', 'creationTimestamp');
    return [
      ageOf(lastSeen, now),
      text(ev['type']),
      text(ev['reason']),
      `${text(at(ref, 'kind')).toLowerCase()}/${text(at(ref, 'name'))}`,
      text(ev['message'], text(ev['note'])),
    ];
  },
};

/** What both views share: one namespaced kind, `ev`, and no generation (Events have no spec). */
abstract class EventStrategy extends Strategy {
  readonly kind = 'Event';
  override readonly printer = eventPrinter;
  readonly plural = 'events';
  readonly namespaced = true;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  override readonly shortNames = ['ev'];

  override generationChanged(): boolean {
    return false;
  }
}

/** Field selectors on the object an Event is about, under the name each view gives it. */
const regardingFields = (prefix: string, names: string[]): Record<string, (o: KubeObject) => unknown> =>
  Object.fromEntries(names.map((n) => [`${prefix}.${n}`, (o: KubeObject) => io(o)[n]]));

export class CoreEventStrategy extends EventStrategy {
  readonly group = '';
  protected override readonly fields = {
    ...regardingFields('involvedObject', ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']),
    reason: (o: KubeObject) => o.reason,
    reportingComponent: (o: KubeObject) => o.reportingComponent,
    source: (o: KubeObject) => (o.source as Obj | undefined)?.component,
    type: (o: KubeObject) => o.type,
  };
}

export class EventsV1Strategy extends EventStrategy {
  readonly group = 'events.k8s.io';
  protected override readonly fields = {
    ...regardingFields('regarding', ['kind', 'namespace', 'name', 'uid']),
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
    return rename(
      obj,
      RENAMES.map(([a, b]) => [b, a]),
      'v1',
    );
  }
}

/** Core `v1` Events. */
export const coreEventKind: BuiltinKind = {
  strategy: () => new CoreEventStrategy(),
  resource: CoreEventResource,
  protobuf: { message: 'Event' },
  bodies: [],
};

/** `events.k8s.io/v1` Events: the same objects as core Events, under their newer API. */
export const eventsV1Kind: BuiltinKind = {
  strategy: () => new EventsV1Strategy(),
  resource: EventResource,
  protobuf: { message: 'EventsV1Event' },
  bodies: [],
};
