// Imports the manager's private EventBroadcaster: unit tests of aggregation over a scripted client.
// The event recorder over a scripted client and a fake clock: aggregation, coalescing, failures.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError, type Client } from 'kube-converge/client';
import { FakeClock, noopLogger, type KubeObject, type LogFields, type Logger } from 'kube-converge/meta';
import { EventBroadcaster } from '../../src/manager/events/index.js';

interface Call {
  verb: 'create' | 'patch';
  body: Record<string, unknown>;
}

/** Records event writes; `fail` makes the next writes reject with the given status code. */
function scriptedClient() {
  const calls: Call[] = [];
  let gate: Promise<void> = Promise.resolve();
  const state = {
    fail: 0 as number,
    hold: (p: Promise<void>): void => {
      gate = p;
    },
  };
  const reject = (code: number) =>
    Promise.reject(
      new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code,
        reason: code === 404 ? 'NotFound' : 'InternalError',
      }),
    );
  const client = {
    create: async (_r: unknown, obj: KubeObject) => {
      await gate;
      calls.push({ verb: 'create', body: structuredClone(obj) });
      if (state.fail) return reject(state.fail);
      return { ...obj, metadata: { ...obj.metadata, resourceVersion: '1' } };
    },
    patch: async (_r: unknown, nn: { name: string }, body: Record<string, unknown>) => {
      await gate;
      calls.push({ verb: 'patch', body: { name: nn.name, ...structuredClone(body) } });
      if (state.fail) return reject(state.fail);
      return { metadata: { name: nn.name } };
    },
  } as unknown as Client;
  return { client, calls, state };
}

const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', uid: 'u1', resourceVersion: '7' } };

describe('event recorder', () => {
  it('creates an events.k8s.io/v1 Event naming the object, the reporter and the reason', async () => {
    const { client, calls } = scriptedClient();
    const b = new EventBroadcaster({ client, clock: new FakeClock(Date.UTC(2026, 0, 1)), logger: noopLogger, host: 'node-1' });
    b.recorder('webapp').event(pod, 'Warning', 'FailedCreate', 'quota exceeded');
    await b.flush();
    assert.equal(calls.length, 1);
    const ev = calls[0]!.body;
    assert.equal(ev['apiVersion'], 'events.k8s.io/v1');
    assert.equal(ev['reportingController'], 'webapp');
    assert.equal(ev['reportingInstance'], 'webapp-node-1');
    assert.equal(ev['eventTime'], '2026-01-01T00:00:00.000000Z');
    assert.deepEqual(ev['regarding'], { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: 'shop', uid: 'u1', resourceVersion: '7' });
    assert.deepEqual([ev['type'], ev['reason'], ev['action'], ev['note']], ['Warning', 'FailedCreate', 'FailedCreate', 'quota exceeded']);
    assert.equal((ev['metadata'] as { namespace: string }).namespace, 'shop');
    assert.match((ev['metadata'] as { name: string }).name, /^web-0\.[0-9a-f]+$/);
  });

  it('turns repeats within six minutes into series patches, and a later repeat into a new Event', async () => {
    const clock = new FakeClock(0);
    const { client, calls } = scriptedClient();
    const b = new EventBroadcaster({ client, clock, logger: noopLogger, host: 'h' });
    const r = b.recorder('webapp');
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    await clock.advance(1_000);
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    assert.deepEqual(
      calls.map((c) => c.verb),
      ['create', 'patch'],
    );
    assert.deepEqual(calls[1]!.body['series'], { count: 2, lastObservedTime: '1970-01-01T00:00:01.000000Z' });
    // A different message is a different Event.
    r.event(pod, 'Normal', 'Synced', 'other');
    await b.flush();
    assert.equal(calls[2]!.verb, 'create');
    await clock.advance(6 * 60 * 1000);
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    assert.equal(calls[3]!.verb, 'create');
    assert.equal(calls[3]!.body['series'], undefined);
  });

  it('coalesces repeats while a write is in flight into one patch carrying the final count', async () => {
    const { client, calls, state } = scriptedClient();
    const b = new EventBroadcaster({ client, clock: new FakeClock(0), logger: noopLogger, host: 'h' });
    const r = b.recorder('webapp');
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    let open!: () => void;
    state.hold(new Promise<void>((resolve) => (open = resolve)));
    for (let i = 0; i < 10; i++) r.event(pod, 'Normal', 'Synced', 'ok');
    open();
    await b.flush();
    const patches = calls.filter((c) => c.verb === 'patch');
    assert.equal(patches.length, 2);
    assert.equal((patches.at(-1)!.body['series'] as { count: number }).count, 11);
  });

  it('never throws into the caller: write failures are logged, and a vanished series Event is created again', async () => {
    const { client, calls, state } = scriptedClient();
    const lines: LogFields[] = [];
    const logger: Logger = { ...noopLogger, error: (f) => void lines.push(f), child: () => logger };
    const b = new EventBroadcaster({ client, clock: new FakeClock(0), logger, host: 'h' });
    const r = b.recorder('webapp');
    state.fail = 500;
    assert.doesNotThrow(() => r.event(pod, 'Normal', 'Synced', 'ok'));
    await b.flush();
    assert.equal(lines.length, 1);
    state.fail = 0;
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    assert.equal(calls.at(-1)!.verb, 'create', 'the failed first write left no Event to patch');
    state.fail = 404;
    r.event(pod, 'Normal', 'Synced', 'ok');
    await b.flush();
    // The patch met 404 and the recorder fell back to a create (which the script also failed).
    assert.deepEqual(
      calls.slice(-2).map((c) => c.verb),
      ['patch', 'create'],
    );
    assert.doesNotThrow(() => r.event({ metadata: {} } as KubeObject, 'Normal', 'X', 'no name'));
    await b.flush();
  });

  it('truncates notes to 1 kB and puts events about cluster-scoped objects in default', async () => {
    const { client, calls } = scriptedClient();
    const b = new EventBroadcaster({ client, clock: new FakeClock(0), logger: noopLogger, host: 'h' });
    b.recorder('c').event({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, 'Normal', 'Big', 'é'.repeat(600));
    await b.flush();
    const ev = calls[0]!.body;
    assert.ok(Buffer.byteLength(ev['note'] as string) <= 1024);
    assert.equal((ev['metadata'] as { namespace: string }).namespace, 'default');
  });
});
