// Tracing end to end, with the OpenTelemetry SDK's in-memory exporter: one ConfigMap change is
// followed from its watch event to the WebApp reconcile it enqueued and to the Deployment patch that
// reconcile made, on the in-process API server with the WebApp operator of examples/webapp.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ConfigMapResource, DeploymentResource } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { setupWebAppController } from '../../examples/webapp/controller.js';
import { setupDeploymentSimulator } from '../../examples/webapp/deployment-simulator.js';
import { ExternalSystem } from '../../examples/webapp/external-system.js';
import { CONFIG_HASH_ANNOTATION, WebApp } from '../../examples/webapp/types.js';

const crd = fileURLToPath(new URL('../../examples/webapp/crd.yaml', import.meta.url));
const ns = 'default';
/** A bound on each wait, not a duration: generous, since the ConfigMap's reconcile alone is delayed by a second. */
const SETTLE_MS = 15_000;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

before(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});

after(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const attr = (s: ReadableSpan, name: string): unknown => s.attributes[name];

describe('reconcile tracing', () => {
  it('links the WebApp reconcile to the ConfigMap change that enqueued it, with its Deployment patch as a child span', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const mgr = await env.newManager();
    setupWebAppController(mgr, { externalSystem: new ExternalSystem() });
    setupDeploymentSimulator(mgr, { stepMs: 5 });
    const running = mgr.start();
    await env.client.create(ConfigMapResource, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shop-config', namespace: ns },
      data: { GREETING: 'hello' },
    });
    await env.client.create(WebApp, {
      apiVersion: WebApp.apiVersion,
      kind: WebApp.kind,
      metadata: { name: 'shop', namespace: ns },
      spec: { image: 'shop:1', replicas: 1, configRef: 'shop-config' },
    });
    const hashOf = async () =>
      (await env.client.get(DeploymentResource, { namespace: ns, name: 'shop' })).spec?.template.metadata?.annotations?.[
        CONFIG_HASH_ANNOTATION
      ];
    // The simulator's Deployment status writes wake the WebApp too: a reconcile they woke that read the
    // changed ConfigMap before its event was dispatched would make the patch with no link to it. So the
    // change is made only once the rollout is over and the WebApp Ready, when nothing else wakes it.
    await eventually(
      async () => {
        const app = await env.client.get(WebApp, { namespace: ns, name: 'shop' });
        assert.equal(app.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
      },
      { timeoutMs: SETTLE_MS, message: 'the WebApp Ready' },
    );
    const firstHash = await hashOf();
    assert.ok(firstHash, 'the Deployment carries its config hash');
    exporter.reset();

    const changed = await env.client.patch(
      ConfigMapResource,
      { namespace: ns, name: 'shop-config' },
      { data: { GREETING: 'hi' } },
      'merge',
    );
    await eventually(async () => assert.notEqual(await hashOf(), firstHash), { timeoutMs: SETTLE_MS, message: 'the Deployment rolled' });
    const spans = await eventually(
      () => {
        const all = exporter.getFinishedSpans();
        const patch = all.find(
          (s) => attr(s, 'http.request.method') === 'PATCH' && attr(s, 'url.path') === `/apis/apps/v1/namespaces/${ns}/deployments/shop`,
        );
        assert.ok(patch, 'the Deployment patch span has ended');
        // The reconcile records an Event for the patch without waiting for its write, which shutting the
        // manager down would cut short (a request span with no response): wait for that write too.
        const reconcileId = patch.parentSpanContext?.spanId;
        assert.ok(
          all.some((s) => s.spanContext().spanId === reconcileId),
          'the reconcile that made the patch has ended',
        );
        assert.ok(
          all.some((s) => s.parentSpanContext?.spanId === reconcileId && String(attr(s, 'url.path')).includes('/events')),
          'its Event write has ended',
        );
        return { all, patch };
      },
      { timeoutMs: SETTLE_MS, message: 'the spans of the change' },
    );
    await mgr.shutdown();
    await running;

    const { all, patch } = spans;
    const event = all.find(
      (s) => s.name === 'ConfigMap MODIFIED' && attr(s, 'converge.object.resource_version') === changed.metadata.resourceVersion,
    );
    assert.ok(event, `an event span for the change; spans: ${all.map((s) => s.name).join(', ')}`);
    assert.equal(attr(event, 'converge.object.name'), 'shop-config');
    assert.equal(event.parentSpanContext, undefined, 'an event starts a trace of its own');

    const reconcile = all.find((s) => s.spanContext().spanId === patch.parentSpanContext?.spanId);
    assert.ok(reconcile, 'the patch is a child of a span that was exported');
    assert.equal(reconcile.name, 'reconcile webapp');
    assert.equal(attr(reconcile, 'converge.controller'), 'webapp');
    assert.equal(attr(reconcile, 'converge.request.namespace'), ns);
    assert.equal(attr(reconcile, 'converge.request.name'), 'shop');
    // The simulator writes the WebApp's status meanwhile, so this reconcile may end in a conflict after its patch.
    const result = attr(reconcile, 'converge.reconcile.result');
    assert.ok(result === 'success' || result === 'error', String(result));
    assert.equal(reconcile.status.code, result === 'error' ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
    assert.match(String(attr(reconcile, 'converge.reconcile_id')), /^[0-9a-f-]{36}$/);
    const link = reconcile.links.find((l) => l.context.spanId === event.spanContext().spanId);
    assert.ok(link, 'the reconcile links to the event that enqueued it');
    assert.equal(typeof link.attributes?.['converge.queue.wait_ms'], 'number');
    assert.equal(typeof attr(reconcile, 'converge.queue.wait_ms'), 'number');

    assert.equal(attr(patch, 'http.response.status_code'), 200);
    assert.equal(attr(patch, 'converge.write'), true);
    assert.equal(patch.spanContext().traceId, reconcile.spanContext().traceId);
    // Every request the reconcile made is its child: here its cached reads make none, its writes do.
    const children = all.filter((s) => s.parentSpanContext?.spanId === reconcile.spanContext().spanId);
    assert.ok(children.length >= 1);
    assert.ok(children.every((s) => s.kind === SpanKind.CLIENT && typeof attr(s, 'http.response.status_code') === 'number'));
  });
});
