// Server-side apply on built-in kinds, with the list types and map keys Kubernetes gives them: two
// managers' containers merge by name, a container's ports by containerPort and protocol (a port
// without a protocol is keyed as TCP, its default), env by name; and managed fields name the elements
// by those keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson } from './helpers.js';

const WEB = '/apis/apps/v1/namespaces/default/deployments/web';

const applied = (containers: unknown[]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
  },
});

async function apply(s: ApiServer, manager: string, body: unknown): Promise<any> {
  const r = await handleJson(s, 'PATCH', `${WEB}?fieldManager=${manager}`, JSON.stringify(body), 'application/apply-patch+yaml');
  assert.ok(r.status === 200 || r.status === 201, r.text);
  return r.body;
}

describe('server-side apply on built-in kinds, keyed as Kubernetes keys their lists', () => {
  it('merges two managers’ containers by name, ports by containerPort and protocol, env by name', async () => {
    const s = createApiServer();
    try {
      await apply(s, 'base', applied([{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] }]));
      const merged = await apply(
        s,
        'extra',
        applied([
          { name: 'app', ports: [{ containerPort: 80, protocol: 'UDP' }], env: [{ name: 'B', value: '2' }] },
          { name: 'sidecar', image: 'busybox' },
        ]),
      );
      const [app, sidecar] = merged.spec.template.spec.containers;
      assert.equal(app.name, 'app');
      assert.equal(app.image, 'nginx');
      assert.deepEqual(
        app.ports.map((p: { containerPort: number; protocol: string }) => `${p.containerPort}/${p.protocol}`),
        ['80/TCP', '80/UDP'],
      );
      assert.deepEqual(
        app.env.map((e: { name: string }) => e.name),
        ['A', 'B'],
      );
      assert.equal(sidecar.name, 'sidecar');

      const entry = merged.metadata.managedFields.find((m: { manager: string }) => m.manager === 'base');
      const container = entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"app"}'];
      assert.ok(container['f:ports']['k:{"containerPort":80,"protocol":"TCP"}'], JSON.stringify(container));
      assert.ok(container['f:env']['k:{"name":"A"}']);
    } finally {
      s.stop();
    }
  });

  it('removes only the element a manager stops applying, keyed the same way', async () => {
    const s = createApiServer();
    try {
      await apply(s, 'base', applied([{ name: 'app', image: 'nginx', env: [{ name: 'A', value: '1' }] }]));
      await apply(s, 'extra', applied([{ name: 'app', env: [{ name: 'B', value: '2' }] }]));
      const after = await apply(s, 'extra', applied([{ name: 'app' }]));
      assert.deepEqual(
        after.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name),
        ['A'],
      );
    } finally {
      s.stop();
    }
  });

  it('keys a Service’s ports by port and protocol, an omitted protocol as TCP', async () => {
    const s = createApiServer();
    const service = (ports: unknown[]) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'dns', namespace: 'default' },
      spec: { selector: { app: 'dns' }, ports },
    });
    const url = '/api/v1/namespaces/default/services/dns';
    const applyService = async (manager: string, ports: unknown[]): Promise<any> => {
      const r = await handleJson(
        s,
        'PATCH',
        `${url}?fieldManager=${manager}`,
        JSON.stringify(service(ports)),
        'application/apply-patch+yaml',
      );
      assert.ok(r.status === 200 || r.status === 201, r.text);
      return r.body;
    };
    try {
      await applyService('tcp', [{ name: 'dns-tcp', port: 53 }]);
      const merged = await applyService('udp', [{ name: 'dns-udp', port: 53, protocol: 'UDP' }]);
      assert.deepEqual(
        merged.spec.ports.map((p: { port: number; protocol: string }) => `${p.port}/${p.protocol}`),
        ['53/TCP', '53/UDP'],
      );
      const entry = merged.metadata.managedFields.find((m: { manager: string }) => m.manager === 'tcp');
      assert.ok(entry.fieldsV1['f:spec']['f:ports']['k:{"port":53,"protocol":"TCP"}'], JSON.stringify(entry.fieldsV1));
    } finally {
      s.stop();
    }
  });
});
