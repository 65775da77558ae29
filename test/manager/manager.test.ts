// Imports the manager's private option resolution beside the public Manager.
// The Manager's lifecycle without an API server: runnable groups, order, failures, shutdown timing.
import { describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import type { Client } from 'kube-converge/client';
import type { Runnable } from 'kube-converge/controller';
import { createManager, installSignalHandlers } from 'kube-converge/manager';
import { FakeClock, noopLogger } from 'kube-converge/meta';
import { resolveManagerOptions } from '../../src/manager/options.js';

/** A client no test here may reach: every call fails loudly. */
const unreachable = new Proxy(
  {},
  {
    get: (_t, verb) => () => Promise.reject(new Error(`unexpected API call: ${String(verb)}`)),
  },
) as Client;

function recorder(log: string[], name: string, options: { leader: boolean; endsOnAbortAfter?: Promise<void>; fails?: Error }): Runnable {
  return {
    needLeaderElection: () => options.leader,
    start: async (signal) => {
      log.push(`start ${name}`);
      if (options.fails) throw options.fails;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      await options.endsOnAbortAfter;
      log.push(`stop ${name}`);
    },
  };
}

describe('manager lifecycle', () => {
  it('starts non-leader runnables before leader runnables, and stops others, then leader runnables', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger });
    const log: string[] = [];
    mgr.add(recorder(log, 'controller', { leader: true }));
    mgr.add(recorder(log, 'other', { leader: false }));
    const run = mgr.start();
    await mgr.elected();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start other', 'start controller']);
    assert.equal(mgr.isLeader(), true);
    await mgr.shutdown();
    await run;
    assert.deepEqual(log.slice(2), ['stop other', 'stop controller']);
    assert.equal(mgr.isLeader(), false);
  });

  it('starts a runnable added after start at once', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger });
    const log: string[] = [];
    const run = mgr.start();
    await mgr.elected();
    mgr.add(recorder(log, 'late', { leader: true }));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(log, ['start late']);
    await mgr.shutdown();
    await run;
  });

  it('stops everything and rejects start with the first runnable failure', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger });
    const log: string[] = [];
    const boom = new Error('boom');
    mgr.add(recorder(log, 'healthy', { leader: true }));
    mgr.add(recorder(log, 'broken', { leader: true, fails: boom }));
    await assert.rejects(mgr.start(), (err) => err === boom);
    assert.ok(log.includes('stop healthy'));
  });

  it('refuses a second start and health checks added after start', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger });
    const run = mgr.start();
    await assert.rejects(mgr.start(), { code: 'CONVERGE_ALREADY_STARTED' });
    assert.throws(() => mgr.addHealthzCheck('late', () => {}), { code: 'CONVERGE_INVALID_OPTION' });
    await mgr.shutdown();
    await run;
  });

  it('rejects with ShutdownTimeoutError when runnables overrun the grace period (fake clock)', async () => {
    const clock = new FakeClock(0);
    const mgr = await createManager({ client: unreachable, logger: noopLogger, clock, gracefulShutdownTimeoutMs: 1_000 });
    const log: string[] = [];
    mgr.add(recorder(log, 'stuck', { leader: true, endsOnAbortAfter: new Promise(() => {}) }));
    const run = mgr.start();
    await mgr.elected();
    const outcome = assert.rejects(run, { code: 'CONVERGE_SHUTDOWN_TIMEOUT', message: /still running: leader-election/ });
    void mgr.shutdown();
    await clock.advance(999);
    assert.equal(log.includes('stop stuck'), false);
    await clock.advance(1);
    await outcome;
  });

  it('waits for a slow runnable that ends within the grace period', async () => {
    const clock = new FakeClock(0);
    const mgr = await createManager({ client: unreachable, logger: noopLogger, clock, gracefulShutdownTimeoutMs: 1_000 });
    const log: string[] = [];
    mgr.add(recorder(log, 'slow', { leader: true, endsOnAbortAfter: clock.sleep(500) }));
    const run = mgr.start();
    await mgr.elected();
    const stopped = mgr.shutdown();
    await clock.advance(500);
    await stopped;
    await run;
    assert.deepEqual(log, ['start slow', 'stop slow']);
  });

  it('stops at once, cleanly, when started with an aborted signal', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger, metricsBindAddress: '127.0.0.1:0' });
    const log: string[] = [];
    mgr.add(recorder(log, 'never', { leader: true }));
    await mgr.start(AbortSignal.abort());
    assert.deepEqual(log, []);
  });

  it('rejects start with the bind error when a port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const { port } = taken.address() as AddressInfo;
    try {
      const mgr = await createManager({ client: unreachable, logger: noopLogger, healthProbeBindAddress: `127.0.0.1:${port}` });
      await assert.rejects(mgr.start(), { code: 'EADDRINUSE' });
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('rejects a controller name registered twice', async () => {
    const mgr = await createManager({ client: unreachable, logger: noopLogger });
    mgr.registerControllerName('webapp');
    assert.throws(() => mgr.registerControllerName('webapp'), /skipNameValidation/);
  });

  it('shuts down through Symbol.asyncDispose', async () => {
    const log: string[] = [];
    let run: Promise<void>;
    {
      await using mgr = await createManager({ client: unreachable, logger: noopLogger });
      mgr.add(recorder(log, 'r', { leader: true }));
      run = mgr.start();
      await mgr.elected();
    }
    await run;
    assert.deepEqual(log, ['start r', 'stop r']);
  });
});

describe('manager options', () => {
  it('resolves controller-runtime defaults into a frozen value', () => {
    const o = resolveManagerOptions({ client: unreachable, leaderElection: { id: 'op', namespace: 'ns' } });
    assert.ok(Object.isFrozen(o));
    assert.equal(o.gracefulShutdownTimeoutMs, 30_000);
    assert.equal(o.metricsBind, undefined);
    assert.equal(o.healthProbeBind, undefined);
    const le = o.leaderElection!;
    assert.deepEqual(
      [le.leaseDurationMs, le.renewDeadlineMs, le.retryPeriodMs, le.releaseOnCancel, le.onLoss],
      [15_000, 10_000, 2_000, false, 'exit'],
    );
    assert.match(le.identity, /^.+_[0-9a-f-]{36}$/);
  });

  it('takes the leader-election namespace from the service-account mount, and outside a cluster says it is required', async () => {
    const inCluster = existsSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace');
    const attempt = createManager({ client: {} as Client, leaderElection: { id: 'x' } });
    if (inCluster) {
      const mgr = await attempt;
      assert.ok(mgr.options.leaderElection!.namespace);
    } else {
      await assert.rejects(attempt, {
        code: 'CONVERGE_INVALID_OPTION',
        path: 'leaderElection.namespace',
        message: /not running in a cluster/,
      });
    }
  });

  it('parses bind addresses, with "0" meaning off', () => {
    assert.deepEqual(resolveManagerOptions({ metricsBindAddress: ':8080' }).metricsBind, { host: undefined, port: 8080 });
    assert.deepEqual(resolveManagerOptions({ healthProbeBindAddress: '127.0.0.1:0' }).healthProbeBind, { host: '127.0.0.1', port: 0 });
    assert.equal(resolveManagerOptions({ metricsBindAddress: '0' }).metricsBind, undefined);
    assert.throws(() => resolveManagerOptions({ metricsBindAddress: 'localhost' }), {
      code: 'CONVERGE_INVALID_OPTION',
      path: 'metricsBindAddress',
    });
  });

  it('names the bad option', () => {
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: '', namespace: 'ns' } }), { path: 'leaderElection.id' });
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: 'x', namespace: '' } }), { path: 'leaderElection.namespace' });
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: 'x', namespace: 'ns', leaseDurationMs: 5_000 } }), {
      path: 'leaderElection.leaseDurationMs',
    });
    assert.throws(() => resolveManagerOptions({ leaderElection: { id: 'x', namespace: 'ns', onLoss: 'restart' as never } }), {
      path: 'leaderElection.onLoss',
    });
    assert.throws(() => resolveManagerOptions({ gracefulShutdownTimeoutMs: -1 }), { path: 'gracefulShutdownTimeoutMs' });
    assert.equal(resolveManagerOptions({ gracefulShutdownTimeoutMs: Infinity }).gracefulShutdownTimeoutMs, Infinity);
    assert.throws(() => resolveManagerOptions({ metricsAddr: ':8080' } as never), { path: 'metricsAddr' });
  });
});

describe('signal handlers', () => {
  it('abort their signal on the first SIGTERM and come off the process on remove()', () => {
    const before = process.listenerCount('SIGTERM');
    const beforeInt = process.listenerCount('SIGINT');
    const h = installSignalHandlers();
    assert.equal(process.listenerCount('SIGTERM'), before + 1);
    assert.equal(process.listenerCount('SIGINT'), beforeInt + 1);
    process.emit('SIGTERM', 'SIGTERM');
    assert.equal(h.signal.aborted, true);
    assert.match(String((h.signal.reason as Error).message), /SIGTERM/);
    h.remove();
    assert.equal(process.listenerCount('SIGTERM'), before);
    assert.equal(process.listenerCount('SIGINT'), beforeInt);
  });
});
