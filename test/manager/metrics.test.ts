// Imports the manager's private metrics registry and buckets: unit tests of names, labels and buckets.
// The manager's Prometheus registry: controller-runtime's and client-go's metric names, labels and
// initial zeros. The bucket boundaries come from the private metrics package, which owns them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RECONCILE_TIME_BUCKETS, WORKQUEUE_DURATION_BUCKETS } from '../../src/manager/metrics/index.js';
import { createManagerMetrics } from '../../src/manager/metrics/index.js';

const sample = (text: string, line: string): number | undefined => {
  const m = text.split('\n').find((l) => l.startsWith(line + ' '));
  return m === undefined ? undefined : Number(m.slice(line.length + 1));
};

describe('manager metrics', () => {
  it('registers controller-runtime names on a private registry, initialising a controller with zero series', async () => {
    const m = createManagerMetrics();
    m.controller.maxConcurrentReconciles('webapp', 3);
    m.controller.reconcileTotal('webapp', 'success');
    m.controller.reconcileTotal('webapp', 'success');
    m.controller.reconcileErrors('webapp');
    m.controller.terminalReconcileErrors('webapp');
    m.controller.reconcileTime('webapp', 0.02);
    m.controller.activeWorkers('webapp', 1);
    const text = await m.registry.metrics();
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="webapp",result="success"}'), 2);
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="webapp",result="requeue_after"}'), 0);
    assert.equal(sample(text, 'controller_runtime_reconcile_errors_total{controller="webapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_terminal_reconcile_errors_total{controller="webapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_panics_total{controller="webapp"}'), 0);
    assert.equal(sample(text, 'controller_runtime_reconcile_timeouts_total{controller="webapp"}'), 0);
    assert.equal(sample(text, 'controller_runtime_max_concurrent_reconciles{controller="webapp"}'), 3);
    assert.equal(sample(text, 'controller_runtime_active_workers{controller="webapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="0.025",controller="webapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_count{controller="webapp"}'), 1);
  });

  it('uses controller-runtime bucket layouts: 40 reconcile buckets from 5 ms to 60 s, 12 queue buckets from 10 ns', () => {
    assert.equal(RECONCILE_TIME_BUCKETS.length, 40);
    assert.equal(RECONCILE_TIME_BUCKETS[0], 0.005);
    assert.equal(RECONCILE_TIME_BUCKETS.at(-1), 60);
    assert.deepEqual(WORKQUEUE_DURATION_BUCKETS, [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000]);
  });

  it('labels workqueue metrics with name and controller, and depth with priority', async () => {
    const m = createManagerMetrics();
    const depth = m.workqueue.newDepthMetric('plain');
    depth.inc();
    depth.inc();
    depth.dec();
    m.workqueue.newAddsMetric('plain').inc();
    m.workqueue.newRetriesMetric('plain').inc();
    m.workqueue.newLatencyMetric('plain').observe(0.5);
    m.workqueue.newWorkDurationMetric('plain').observe(0.5);
    m.workqueue.newUnfinishedWorkSecondsMetric('plain').set(1.5);
    m.workqueue.newLongestRunningProcessorSecondsMetric('plain').set(1);
    const byPriority = m.workqueue.newDepthMetricWithPriority!('pq');
    byPriority.inc(10);
    byPriority.inc(-5);
    const text = await m.registry.metrics();
    assert.equal(sample(text, 'workqueue_depth{name="plain",controller="plain",priority=""}'), 1);
    assert.equal(sample(text, 'workqueue_depth{name="pq",controller="pq",priority="10"}'), 1);
    assert.equal(sample(text, 'workqueue_depth{name="pq",controller="pq",priority="-5"}'), 1);
    assert.equal(sample(text, 'workqueue_adds_total{name="plain",controller="plain"}'), 1);
    assert.equal(sample(text, 'workqueue_retries_total{name="plain",controller="plain"}'), 1);
    assert.equal(sample(text, 'workqueue_queue_duration_seconds_count{name="plain",controller="plain"}'), 1);
    assert.equal(sample(text, 'workqueue_work_duration_seconds_bucket{le="1",name="plain",controller="plain"}'), 1);
    assert.equal(sample(text, 'workqueue_unfinished_work_seconds{name="plain",controller="plain"}'), 1.5);
    assert.equal(sample(text, 'workqueue_longest_running_processor_seconds{name="plain",controller="plain"}'), 1);
  });

  it('folds priorities beyond 25 distinct values into exceeded_cardinality_limit', async () => {
    const m = createManagerMetrics();
    const g = m.workqueue.newDepthMetricWithPriority!('pq');
    for (let p = 0; p < 30; p++) g.inc(p);
    const text = await m.registry.metrics();
    assert.equal(sample(text, 'workqueue_depth{name="pq",controller="pq",priority="24"}'), 1);
    assert.equal(sample(text, 'workqueue_depth{name="pq",controller="pq",priority="25"}'), undefined);
    assert.equal(sample(text, 'workqueue_depth{name="pq",controller="pq",priority="exceeded_cardinality_limit"}'), 5);
  });

  it('counts REST requests by code, method and host, and reports leadership per lease name', async () => {
    const m = createManagerMetrics();
    m.restClientRequest({ code: '200', method: 'GET', host: '127.0.0.1:6443' });
    m.restClientRequest({ code: '200', method: 'GET', host: '127.0.0.1:6443' });
    m.restClientRequest({ code: '409', method: 'PUT', host: '127.0.0.1:6443' });
    m.leaderElectionStatus('my-operator', true);
    const text = await m.registry.metrics();
    assert.equal(sample(text, 'rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"}'), 2);
    assert.equal(sample(text, 'rest_client_requests_total{code="409",method="PUT",host="127.0.0.1:6443"}'), 1);
    assert.equal(sample(text, 'leader_election_master_status{name="my-operator"}'), 1);
    m.leaderElectionStatus('my-operator', false);
    assert.equal(sample(await m.registry.metrics(), 'leader_election_master_status{name="my-operator"}'), 0);
  });

  it('keeps two managers’ registries independent', async () => {
    const a = createManagerMetrics();
    const b = createManagerMetrics();
    a.controller.reconcileTotal('x', 'success');
    assert.equal(sample(await b.registry.metrics(), 'controller_runtime_reconcile_total{controller="x",result="success"}'), undefined);
  });
});
