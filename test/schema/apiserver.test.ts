// A generated CRD goes through the local API server's own checks: TestEnv installs it (the
// structural-schema, list-type and CEL checks of CRD creation) and it becomes Established; then the
// server enforces what the definition says on objects (defaults, enums, int-or-string, CEL messages,
// the status and scale subresources, selectable fields).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnv } from 'kube-converge/testing';
import { isInvalid } from 'kube-converge/client';
import { CustomResourceDefinitionResource, type ObjectOf } from 'kube-converge/meta';
import { Widget } from './widget.js';

type W = ObjectOf<typeof Widget>;
const widget = (name: string, spec: Partial<W['spec']> = {}): W =>
  ({ apiVersion: Widget.apiVersion, kind: Widget.kind, metadata: { name, namespace: 'default' }, spec }) as W;

const invalidWith = (pattern: RegExp) => (e: unknown) => isInvalid(e) && pattern.test(String((e as Error).message));

describe('a generated CRD on the local API server', () => {
  let env: TestEnv;
  before(async () => {
    env = await TestEnv.start({ crds: [Widget.crd()] });
  });
  after(() => env.stop());

  it('is installed and Established, with both versions served', async () => {
    const crd = await env.client.get(CustomResourceDefinitionResource, { name: 'widgets.schema.converge.dev' });
    const conditions = crd.status?.conditions ?? [];
    assert.equal(conditions.find((c) => c.type === 'Established')?.status, 'True');
    await env.client.create(Widget.versions.v1beta1, { metadata: { name: 'old', namespace: 'default' }, spec: { color: 'red' } });
  });

  it('applies the defaults and accepts both forms of int-or-string and a quantity', async () => {
    const a = await env.client.create(Widget, widget('defaults', { port: 8080, memory: '1Gi' }));
    assert.equal(a.spec.color, 'red');
    assert.equal(a.spec.replicas, 1);
    const b = await env.client.create(Widget, widget('named-port', { port: 'http', memory: 2 }));
    assert.equal(b.spec.port, 'http');
  });

  it('rejects a value outside the enum, a bad quantity, and a duplicate list-map key', async () => {
    await assert.rejects(env.client.create(Widget, widget('purple', { color: 'purple' as 'red' })), invalidWith(/spec\.color/));
    await assert.rejects(env.client.create(Widget, widget('mem', { memory: 'lots' })), invalidWith(/spec\.memory/));
    await assert.rejects(env.client.create(Widget, widget('dup', { env: [{ name: 'A' }, { name: 'A' }] })), invalidWith(/Duplicate value/));
  });

  it('enforces the CEL rules with their message, message expression and field path', async () => {
    await assert.rejects(
      env.client.create(Widget, widget('cel', { replicas: 1, minReplicas: 3 })),
      invalidWith(/spec\.minReplicas.*minReplicas must not exceed replicas/),
    );
    await assert.rejects(
      env.client.create(Widget, widget('blue', { color: 'blue', replicas: 0 })),
      invalidWith(/a blue widget needs replicas, got 0/),
    );
  });

  it('serves the status and scale subresources and the selectable field', async () => {
    const w = await env.client.create(Widget, widget('scaled', { color: 'green', replicas: 3 }));
    w.status = { replicas: 3, selector: 'app=scaled' };
    const updated = await env.client.updateStatus(Widget, w);
    assert.equal(updated.status?.replicas, 3);
    const scale = await env.client.get(Widget, { namespace: 'default', name: 'scaled' }, { subresource: 'scale' });
    assert.equal((scale['spec'] as { replicas?: number }).replicas, 3);
    const green = await env.client.list(Widget, { namespace: 'default', fieldSelector: 'spec.color=green' });
    assert.deepEqual(green.items.map((i) => i.metadata.name).sort(), ['scaled']);
  });
});
