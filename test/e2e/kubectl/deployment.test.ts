// kubectl against the in-process server on a Deployment: client-side apply (strategic merge
// patches with $setElementOrder), the scale and status subresources, wait for a condition, delete.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlBinaries, startKubectlEnv } from './harness.js';
import type { KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();

const deployment = (ns: string, containers: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
${containers}`;

describe('kubectl on Deployments', () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      const ns = `deploy-${bin.version.replace(/\./g, '-')}`;

      it('applies a Deployment twice (created, unchanged), then applies a changed container list', async () => {
        await env.ok(bin, [
          'create',
          '-f',
          await env.manifest(`ns-${ns}.yaml`, `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`),
        ]);
        const first = await env.manifest(
          `d1-${ns}.yaml`,
          deployment(
            ns,
            '      - name: app\n        image: nginx:1.27\n        ports:\n        - containerPort: 80\n      - name: sidecar\n        image: busybox\n',
          ),
        );
        assert.equal((await env.ok(bin, ['apply', '-f', first])).trim(), 'deployment.apps/web created');
        assert.equal((await env.ok(bin, ['apply', '-f', first])).trim(), 'deployment.apps/web unchanged');
        const second = await env.manifest(
          `d2-${ns}.yaml`,
          deployment(ns, '      - name: app\n        image: nginx:1.28\n        ports:\n        - containerPort: 80\n'),
        );
        assert.equal((await env.ok(bin, ['apply', '-f', second])).trim(), 'deployment.apps/web configured');
        assert.equal((await env.ok(bin, ['apply', '-f', second])).trim(), 'deployment.apps/web unchanged');
        const got = JSON.parse(await env.ok(bin, ['get', 'deployment', 'web', '-n', ns, '-o', 'json']));
        assert.deepEqual(
          got.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`),
          ['app=nginx:1.28'],
        );
        assert.equal(got.metadata.generation, 2);
      });

      it('prints the Deployment columns', async () => {
        const out = await env.ok(bin, ['get', 'deploy', '-n', ns]);
        assert.match(out, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
        assert.match(out, /^web\s+0\/1\s+0\s+0\s+\d+s$/m);
      });

      it('adds a container with a strategic merge patch, keeping the others', async () => {
        await env.ok(bin, [
          'patch',
          'deploy',
          'web',
          '-n',
          ns,
          '-p',
          '{"spec":{"template":{"spec":{"containers":[{"name":"logger","image":"fluentbit"}]}}}}',
        ]);
        const names = await env.ok(bin, ['get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.template.spec.containers[*].name}']);
        assert.equal(names, 'app logger');
      });

      it('scales through the scale subresource', async () => {
        assert.match(await env.ok(bin, ['scale', 'deployment', 'web', '-n', ns, '--replicas=3']), /deployment.apps\/web scaled/);
        assert.equal(await env.ok(bin, ['get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}']), '3');
      });

      it('patches status through the status subresource and waits for the condition', async () => {
        const status = {
          status: {
            replicas: 3,
            readyReplicas: 3,
            availableReplicas: 3,
            updatedReplicas: 3,
            conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' }],
          },
        };
        assert.match(
          await env.ok(bin, ['patch', 'deploy', 'web', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify(status)]),
          /patched/,
        );
        assert.match(
          await env.ok(bin, ['wait', '--for=condition=Available', 'deployment/web', '-n', ns, '--timeout=15s']),
          /condition met/,
        );
        assert.match(await env.ok(bin, ['get', 'deploy', '-n', ns]), /^web\s+3\/3\s+3\s+3\s+\d+s$/m);
      });

      it('deletes the Deployment and waits until it is gone', async () => {
        assert.match(await env.ok(bin, ['delete', 'deployment', 'web', '-n', ns, '--timeout=15s']), /deployment.apps "web" deleted/);
        assert.match((await env.run(bin, ['get', 'deploy', 'web', '-n', ns])).stderr, /deployments.apps "web" not found/);
      });
    });
  }
});
