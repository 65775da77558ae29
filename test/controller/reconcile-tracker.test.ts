// Imports the controller's private ReconcileTracker: unit tests of what it records per key.
// The reconcile tracker: what a controller knows about each request key, fed by its reconcile loop
// (driven here through a fake host and FakeClock), and the tracker's own bounds and error reduction;
// those two come from its private file, as the tracker is the controller's internal (users read
// `reconcileState`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enqueueRequestForObject, kindSource, newUnmanagedController, TerminalError } from 'kube-converge/controller';
import type { ControllerOptions, Reconciler, Request } from 'kube-converge/controller';
import { errorInfo, ReconcileTracker } from '../../src/controller/reconcile-tracker.js';
import { StatusError } from 'kube-converge/client';
import { ConfigMapResource, FakeClock } from 'kube-converge/meta';
import type { ObjectOf } from 'kube-converge/meta';
import { FakeHost, settle, step } from './fake-host.js';
import type { FakeClient } from './fake-host.js';

type Obj = ObjectOf<typeof ConfigMapResource>;
const cm = (name: string, rv = '1'): Obj => ({ metadata: { namespace: 'ns', name, resourceVersion: rv } });
const A: Request = { namespace: 'ns', name: 'a' };

const conflict = (): StatusError =>
  new StatusError({
    apiVersion: 'v1',
    kind: 'Status',
    status: 'Failure',
    code: 409,
    reason: 'Conflict',
    message:
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
  });

async function running(reconciler: Reconciler<FakeClient>, options: ControllerOptions = {}) {
  const host = new FakeHost();
  const informer = host.informer(ConfigMapResource);
  informer.sync();
  const controller = newUnmanagedController(host, { name: 'cms', reconciler, ...options });
  await controller.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
  const stop = new AbortController();
  const done = controller.start(stop.signal);
  await settle();
  const finish = async (): Promise<void> => {
    stop.abort();
    await done;
  };
  return { host, informer, controller, finish };
}

describe('ReconcileTracker in the reconcile loop', () => {
  it('knows nothing about a request the controller never saw', async () => {
    const t = await running(async () => {});
    assert.equal(t.controller.reconcileState(A), undefined);
    assert.deepEqual(t.controller.reconcileStates(), []);
    await t.finish();
  });

  it('shows a failing request as waiting-retry with its failures, the API reason and the backoff deadline', async () => {
    let calls = 0;
    const t = await running(async () => {
      calls++;
      throw conflict();
    });
    const t0 = t.host.clock.now();
    t.informer.add(cm('a'));
    await settle();
    // attempts at 0, 5, 15 (backoff 5, 10, then 20 ms)
    await step(t.host.clock, 15);
    assert.equal(calls, 3);
    const s = t.controller.reconcileState(A)!;
    assert.equal(s.phase, 'waiting-retry');
    assert.equal(s.failures, 3);
    assert.equal(s.reconciles, 3);
    assert.equal(s.lastOutcome, 'error');
    assert.equal(s.lastError?.reason, 'Conflict');
    assert.equal(s.lastError?.code, 'CONVERGE_API_STATUS');
    assert.match(s.lastError!.message, /the object has been modified/);
    assert.equal(s.nextAttemptAt, t0 + 15 + 20);
    assert.equal(s.lastStartedAt, t0 + 15);
    assert.equal(s.lastFinishedAt, t0 + 15);
    assert.match(s.lastReconcileID!, /^[0-9a-f-]{36}$/);
    assert.deepEqual(s.request, A);
    await t.finish();
  });

  it('shows the reconcile in flight, then done with no error and no failures once it succeeds', async () => {
    let release!: () => void;
    let n = 0;
    const t = await running(async () => {
      n++;
      if (n === 1) throw new Error('not yet');
      await new Promise<void>((r) => (release = r));
    });
    t.informer.add(cm('a'));
    await step(t.host.clock, 5);
    const during = t.controller.reconcileState(A)!;
    assert.equal(during.phase, 'reconciling');
    assert.equal(during.nextAttemptAt, undefined);
    assert.equal(during.failures, 1, 'failures count until a reconcile succeeds');
    release();
    await settle();
    const after = t.controller.reconcileState(A)!;
    assert.equal(after.phase, 'done');
    assert.equal(after.lastOutcome, 'success');
    assert.equal(after.failures, 0);
    assert.equal(after.lastError, undefined);
    assert.equal(after.reconciles, 2);
    assert.equal(after.lastReconcileID, during.lastReconcileID, 'the same reconcile started and finished');
    await t.finish();
  });

  it('shows requeueAfter as waiting-requeue with its due time, and the result it returned', async () => {
    const t = await running(async () => ({ requeueAfter: 1000 }));
    const t0 = t.host.clock.now();
    t.informer.add(cm('a'));
    await settle();
    const s = t.controller.reconcileState(A)!;
    assert.equal(s.phase, 'waiting-requeue');
    assert.equal(s.lastOutcome, 'requeue_after');
    assert.deepEqual(s.lastResult, { requeueAfter: 1000 });
    assert.equal(s.nextAttemptAt, t0 + 1000);
    await step(t.host.clock, 1000);
    assert.equal(t.controller.reconcileState(A)!.reconciles, 2);
    assert.equal(t.controller.reconcileState(A)!.nextAttemptAt, t0 + 2000);
    await t.finish();
  });

  it('shows a TerminalError as terminal with no next attempt, until a new event queues it again', async () => {
    let n = 0;
    let release!: () => void;
    const t = await running(async () => {
      n++;
      if (n === 1) throw new TerminalError(new Error('spec.replicas must be positive'));
      await new Promise<void>((r) => (release = r));
    });
    t.informer.add(cm('a'));
    await settle();
    const s = t.controller.reconcileState(A)!;
    assert.equal(s.phase, 'terminal');
    assert.equal(s.lastOutcome, 'terminal');
    assert.equal(s.nextAttemptAt, undefined);
    assert.equal(s.lastError?.code, 'CONVERGE_TERMINAL');
    assert.equal(s.lastError?.message, 'terminal error: spec.replicas must be positive');
    assert.equal(s.failures, 1);
    await t.host.clock.advance(60_000);
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'terminal');
    t.informer.update(cm('a', '2'));
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'reconciling');
    release();
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'done');
    await t.finish();
  });

  it('shows a key whose event arrived during its reconcile as queued, not as the outcome of that reconcile', async () => {
    let n = 0;
    let release!: () => void;
    const t = await running(async () => {
      n++;
      if (n === 1) await new Promise<void>((r) => (release = r));
      throw new Error('fails every time');
    });
    t.informer.add(cm('a'));
    await settle();
    t.informer.update(cm('a', '2')); // queue marks it dirty: handed out again right after this reconcile
    release();
    await Promise.resolve();
    await Promise.resolve();
    const s = t.controller.reconcileState(A)!;
    assert.ok(s.phase === 'queued' || s.phase === 'reconciling', s.phase);
    await settle();
    assert.equal(n, 2, 'the re-added key ran at once, not after the backoff');
    await t.finish();
  });

  it('a queued key is queued, and an event on a key waiting for its retry makes it queued again', async () => {
    let block = true;
    let release!: () => void;
    const t = await running(async (req) => {
      if (req.name === 'blocker') {
        await new Promise<void>((r) => (release = r));
        return;
      }
      if (block) throw new Error('down');
    });
    t.informer.add(cm('blocker'));
    await settle();
    t.informer.add(cm('a')); // the only worker is busy: a waits in the queue
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'queued');
    assert.equal(t.controller.reconcileState({ namespace: 'ns', name: 'blocker' })!.phase, 'reconciling');
    release();
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'waiting-retry');
    block = false;
    // A failing key's retry is 5 ms away; advancing 1 ms leaves it waiting, then an event queues it.
    await t.host.clock.advance(1);
    t.informer.update(cm('a', '2'));
    const s = t.controller.reconcileState(A)!;
    assert.ok(s.phase === 'queued' || s.phase === 'reconciling', s.phase);
    await settle();
    assert.equal(t.controller.reconcileState(A)!.phase, 'done');
    await t.finish();
  });

  it('sees the retry delay of a custom rate limiter', async () => {
    const limiter = { when: () => 250, forget: () => {}, numRequeues: () => 0 };
    const t = await running(
      async () => {
        throw new Error('x');
      },
      { rateLimiter: limiter },
    );
    const t0 = t.host.clock.now();
    t.informer.add(cm('a'));
    await settle();
    assert.equal(t.controller.reconcileState(A)!.nextAttemptAt, t0 + 250);
    await t.finish();
  });

  it('tracks the plain rate-limiting queue too (usePriorityQueue: false)', async () => {
    const t = await running(
      async () => {
        throw new Error('x');
      },
      { usePriorityQueue: false },
    );
    const t0 = t.host.clock.now();
    t.informer.add(cm('a'));
    await settle();
    const s = t.controller.reconcileState(A)!;
    assert.equal(s.phase, 'waiting-retry');
    assert.equal(s.nextAttemptAt, t0 + 5);
    await t.finish();
  });

  it('hands out frozen snapshots that later reconciles do not change', async () => {
    const t = await running(async () => {});
    t.informer.add(cm('a'));
    await settle();
    const s = t.controller.reconcileState(A)!;
    assert.ok(Object.isFrozen(s));
    assert.throws(() => {
      (s as { phase: string }).phase = 'queued';
    }, TypeError);
    t.informer.update(cm('a', '2'));
    await settle();
    assert.equal(s.reconciles, 1);
    assert.equal(t.controller.reconcileState(A)!.reconciles, 2);
    await t.finish();
  });
});

describe('ReconcileTracker on its own', () => {
  it('keeps at most maxKeys keys, evicting the one updated least recently', () => {
    const tracker = new ReconcileTracker({ clock: new FakeClock(), maxKeys: 3 });
    for (const name of ['a', 'b', 'c']) tracker.enqueued({ name }, 0);
    tracker.started({ name: 'a' }, 'id-a'); // a is now the most recently updated
    tracker.enqueued({ name: 'd' }, 0);
    assert.equal(tracker.size, 3);
    assert.deepEqual(
      tracker.states().map((s) => s.request.name),
      ['c', 'a', 'd'],
    );
    assert.equal(tracker.state({ name: 'b' }), undefined);
    for (let i = 0; i < 10_000; i++) tracker.enqueued({ namespace: 'ns', name: `x${i}` }, 0);
    assert.equal(tracker.size, 3);
  });

  it('defaults to 10,000 keys', () => {
    const tracker = new ReconcileTracker({ clock: new FakeClock() });
    for (let i = 0; i < 10_050; i++) tracker.enqueued({ name: `k${i}` }, 0);
    assert.equal(tracker.size, 10_000);
    assert.equal(tracker.state({ name: 'k49' }), undefined);
    assert.equal(tracker.state({ name: 'k50' })?.phase, 'queued');
  });

  it('treats an empty namespace as none, as request keys do', () => {
    const tracker = new ReconcileTracker({ clock: new FakeClock() });
    tracker.enqueued({ namespace: '', name: 'n' }, 0);
    assert.deepEqual(tracker.state({ name: 'n' })?.request, { name: 'n' });
  });

  it('keys a request with more fields than namespace and name by all of them, as the queue does', () => {
    const tracker = new ReconcileTracker({ clock: new FakeClock() });
    const inA = { cluster: 'a', namespace: 'ns', name: 'n' } as Request;
    const inB = { cluster: 'b', namespace: 'ns', name: 'n' } as Request;
    tracker.enqueued(inA, 0);
    tracker.started(inA, 'id-a');
    tracker.enqueued(inB, 0);
    assert.equal(tracker.state(inA)?.phase, 'reconciling');
    assert.equal(tracker.state(inB)?.phase, 'queued');
    assert.equal(tracker.state({ namespace: 'ns', name: 'n' }), undefined);
  });

  it('a delayed add keeps the earliest due time, as the queue does', () => {
    const clock = new FakeClock();
    const tracker = new ReconcileTracker({ clock });
    tracker.enqueued(A, 500);
    assert.equal(tracker.state(A)?.phase, 'waiting-requeue');
    assert.equal(tracker.state(A)?.nextAttemptAt, clock.now() + 500);
    tracker.enqueued(A, 900);
    assert.equal(tracker.state(A)?.nextAttemptAt, clock.now() + 500);
    tracker.enqueued(A, 100);
    assert.equal(tracker.state(A)?.nextAttemptAt, clock.now() + 100);
    tracker.enqueued(A, 0);
    assert.equal(tracker.state(A)?.phase, 'queued');
    assert.equal(tracker.state(A)?.nextAttemptAt, undefined);
  });

  it('a delayed add made during a reconcile is still due after it, whatever the outcome', () => {
    const clock = new FakeClock();
    const tracker = new ReconcileTracker({ clock });
    const t0 = clock.now();
    tracker.started(A, 'r1');
    tracker.enqueued(A, 300);
    tracker.enqueued(A, 500);
    assert.equal(tracker.state(A)?.phase, 'reconciling');
    tracker.finished(A, { ok: true, result: {} });
    assert.equal(tracker.state(A)?.phase, 'waiting-requeue');
    assert.equal(tracker.state(A)?.nextAttemptAt, t0 + 300);
    tracker.started(A, 'r2');
    tracker.enqueued(A, 300);
    tracker.finished(A, { ok: false, err: new Error('x'), terminal: false });
    tracker.retryScheduled(A, 5);
    assert.equal(tracker.state(A)?.phase, 'waiting-retry');
    assert.equal(tracker.state(A)?.nextAttemptAt, t0 + 5, 'the earlier of the backoff and the delayed add');
    tracker.started(A, 'r3');
    tracker.finished(A, { ok: true, result: {} });
    assert.equal(tracker.state(A)?.phase, 'done', 'delayed adds of an earlier reconcile do not linger');
  });

  it('reduces anything thrown to a message, a code and an API reason, even hostile values', () => {
    assert.deepEqual(errorInfo(conflict()).reason, 'Conflict');
    assert.deepEqual(errorInfo({ status: { reason: 'NotFound' }, toString: () => 'plain' }), { message: 'plain', reason: 'NotFound' });
    assert.deepEqual(errorInfo('just a string'), { message: 'just a string' });
    assert.deepEqual(errorInfo(undefined), { message: 'undefined' });
    assert.deepEqual(errorInfo(Object.create(null)), { message: '[object Object]' });
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        has: () => {
          throw new Error('trap');
        },
      },
    );
    assert.equal(typeof errorInfo(hostile).message, 'string');
  });
});
