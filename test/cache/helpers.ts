/** Shared set-up for informer unit tests: a fake client, a fake clock, a recording handler and logger. */
import {
  createListerWatcher,
  createSharedIndexInformer,
  isDeletedFinalStateUnknown,
  type ResourceEventHandler,
  type SharedIndexInformer,
  type SharedIndexInformerOptions,
} from 'kube-converge/cache';
import { ConfigMapResource, FakeClock, type KubeObject, type LogFields, type Logger } from 'kube-converge/meta';
import { FakeClient, settle, type FakeClientOptions } from './fake-client.js';

export interface LogLine {
  level: string;
  msg: string;
  fields: LogFields;
}

export function captureLogger(lines: LogLine[] = [], bound: LogFields = {}): Logger & { lines: LogLine[] } {
  const at = (level: string) => (fields: LogFields, msg: string) => void lines.push({ level, msg, fields: { ...bound, ...fields } });
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (f) => captureLogger(lines, { ...bound, ...f }),
  };
}

const rvOf = (o: KubeObject): string => o.metadata.resourceVersion ?? '?';
const nameOf = (o: KubeObject): string => o.metadata.name ?? '?';

/** A handler that records what it sees as short strings: `add a 101 initial`, `update a 101>104`, `tombstone b 102`. */
export function recorder(): { events: string[]; handler: ResourceEventHandler } {
  const events: string[] = [];
  return {
    events,
    handler: {
      onAdd: (o, initial) => void events.push(`add ${nameOf(o)} ${rvOf(o)}${initial ? ' initial' : ''}`),
      onUpdate: (a, b) => void events.push(`update ${nameOf(b)} ${rvOf(a)}>${rvOf(b)}${a === b ? ' same' : ''}`),
      onDelete: (o) =>
        void events.push(isDeletedFinalStateUnknown(o) ? `tombstone ${o.key} ${rvOf(o.obj)}` : `delete ${nameOf(o)} ${rvOf(o)}`),
    },
  };
}

export interface Harness {
  clock: FakeClock;
  client: FakeClient;
  informer: SharedIndexInformer;
  logger: ReturnType<typeof captureLogger>;
  start(): void;
  stop(): Promise<void>;
  /** Moves the fake clock and lets the async machinery settle. */
  advance(ms: number): Promise<void>;
}

export function harness(
  o: { client?: FakeClientOptions; namespace?: string; informer?: Partial<SharedIndexInformerOptions<KubeObject>> } = {},
): Harness {
  const clock = new FakeClock();
  const client = new FakeClient(o.client);
  const logger = captureLogger();
  const informer = createSharedIndexInformer<KubeObject>({
    listerWatcher: createListerWatcher<KubeObject>({ client, resource: ConfigMapResource, namespace: o.namespace }),
    clock,
    logger,
    ...o.informer,
    reflector: { random: () => 0.5, ...o.informer?.reflector },
  });
  const ac = new AbortController();
  let done: Promise<void> | undefined;
  return {
    clock,
    client,
    informer,
    logger,
    start: () => {
      done = informer.run(ac.signal);
    },
    stop: async () => {
      ac.abort();
      await done;
    },
    advance: async (ms) => {
      await settle();
      await clock.advance(ms);
      await settle();
    },
  };
}
