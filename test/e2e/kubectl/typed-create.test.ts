// kubectl's typed commands (`create namespace|configmap|secret|deployment|service|serviceaccount`,
// `run`, `debug --copy-to`, `expose`): from 1.32 on, `create` and `debug` send protobuf bodies, so
// each stored object is read back with `get -o json` and checked field by field. Runs on the usual
// oldest and newest kubectl and on every installed version from 1.32 (the protobuf senders).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlBinariesWithEvery, startKubectlEnv } from './harness.js';
import type { KubectlBinary, KubectlEnv } from './harness.js';

const binaries = kubectlBinariesWithEvery({ major: 1, minor: 32 });

describe('kubectl typed create commands', () => {
  let env: KubectlEnv;
  before(async () => { env = await startKubectlEnv(); });
  // `before` may have failed before the server started.
  after(async () => { if (env !== undefined) await env.stop(); });

  it('runs with a kubectl that sends protobuf bodies (1.32 or later)', () => {
    assert.ok(binaries.some((b) => /^1\.(3[2-9]|[4-9]\d)$/.test(b.version)), `found ${binaries.map((b) => b.version).join(', ') || 'no kubectl'}`);
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      const ns = `typed-${bin.version.replace(/\./g, '-')}`;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const getJson = async (b: KubectlBinary, ...args: string[]): Promise<any> => JSON.parse(await env.ok(b, ['get', ...args, '-o', 'json']));

      it('create namespace', async () => {
        assert.equal((await env.ok(bin, ['create', 'namespace', ns])).trim(), `namespace/${ns} created`);
        const got = await getJson(bin, 'namespace', ns);
        assert.equal(got.metadata.name, ns);
        assert.equal(got.status.phase, 'Active');
        assert.deepEqual(got.spec.finalizers, ['kubernetes']);
      });

      it('create configmap --from-literal', async () => {
        assert.equal((await env.ok(bin, ['create', 'configmap', 'settings', '-n', ns, '--from-literal=mode=fast', '--from-literal=empty=', '--from-literal=text=a b=c'])).trim(), 'configmap/settings created');
        const got = await getJson(bin, 'configmap', 'settings', '-n', ns);
        assert.deepEqual(got.data, { mode: 'fast', empty: '', text: 'a b=c' });
        assert.equal(got.metadata.namespace, ns);
        assert.equal(got.binaryData, undefined);
      });

      it('create secret generic --from-literal', async () => {
        assert.equal((await env.ok(bin, ['create', 'secret', 'generic', 'creds', '-n', ns, '--from-literal=user=admin', '--from-literal=pass=s3cr=t'])).trim(), 'secret/creds created');
        const got = await getJson(bin, 'secret', 'creds', '-n', ns);
        assert.equal(got.type, 'Opaque');
        assert.deepEqual(got.data, { user: Buffer.from('admin').toString('base64'), pass: Buffer.from('s3cr=t').toString('base64') });
      });

      it('create deployment --image --replicas --port', async () => {
        assert.equal((await env.ok(bin, ['create', 'deployment', 'web', '-n', ns, '--image=nginx:1.27', '--replicas=3', '--port=8080'])).trim(), 'deployment.apps/web created');
        const got = await getJson(bin, 'deployment', 'web', '-n', ns);
        assert.equal(got.spec.replicas, 3);
        assert.deepEqual(got.metadata.labels, { app: 'web' });
        assert.deepEqual(got.spec.selector, { matchLabels: { app: 'web' } });
        assert.deepEqual(got.spec.template.metadata.labels, { app: 'web' });
        const [container, ...rest] = got.spec.template.spec.containers;
        assert.equal(rest.length, 0);
        assert.equal(container.name, 'nginx');
        assert.equal(container.image, 'nginx:1.27');
        assert.deepEqual(container.ports, [{ containerPort: 8080, protocol: 'TCP' }]);
        assert.equal(got.spec.strategy.type, 'RollingUpdate');
        assert.equal(got.metadata.generation, 1);
      });

      it('create service clusterip --tcp', async () => {
        assert.equal((await env.ok(bin, ['create', 'service', 'clusterip', 'api', '-n', ns, '--tcp=80:8080', '--tcp=443'])).trim(), 'service/api created');
        const got = await getJson(bin, 'service', 'api', '-n', ns);
        assert.equal(got.spec.type, 'ClusterIP');
        assert.match(got.spec.clusterIP, /^\d+\.\d+\.\d+\.\d+$/);
        assert.deepEqual(got.spec.selector, { app: 'api' });
        assert.deepEqual(got.spec.ports, [
          { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: '443', protocol: 'TCP', port: 443, targetPort: 443 },
        ]);
      });

      it('create serviceaccount', async () => {
        assert.equal((await env.ok(bin, ['create', 'serviceaccount', 'robot', '-n', ns])).trim(), 'serviceaccount/robot created');
        const got = await getJson(bin, 'serviceaccount', 'robot', '-n', ns);
        assert.equal(got.metadata.name, 'robot');
        assert.equal(got.metadata.namespace, ns);
        assert.equal(got.automountServiceAccountToken, undefined);
      });

      it('run --image with labels, env, a port and a command', async () => {
        assert.equal((await env.ok(bin, ['run', 'shell', '-n', ns, '--image=busybox:1.36', '--labels=app=shell,tier=debug', '--env=GREETING=hi', '--port=9000', '--', 'sleep', '3600'])).trim(), 'pod/shell created');
        const got = await getJson(bin, 'pod', 'shell', '-n', ns);
        assert.deepEqual(got.metadata.labels, { app: 'shell', tier: 'debug' });
        const [container] = got.spec.containers;
        assert.equal(container.name, 'shell');
        assert.equal(container.image, 'busybox:1.36');
        assert.deepEqual(container.args, ['sleep', '3600']);
        assert.deepEqual(container.env, [{ name: 'GREETING', value: 'hi' }]);
        assert.deepEqual(container.ports, [{ containerPort: 9000, protocol: 'TCP' }]);
        assert.equal(got.spec.restartPolicy, 'Always');
      });

      it('debug --copy-to: a copy of a Pod with every server default set, plus a debug container', async () => {
        await env.ok(bin, ['debug', 'shell', '-n', ns, '--copy-to=shell-copy', '--image=busybox:1.37', '--container=dbg', '--', 'sleep', '1']);
        const got = await getJson(bin, 'pod', 'shell-copy', '-n', ns);
        assert.deepEqual(got.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`), ['shell=busybox:1.36', 'dbg=busybox:1.37']);
        assert.deepEqual(got.spec.containers[0].env, [{ name: 'GREETING', value: 'hi' }]);
        assert.deepEqual(got.spec.containers[1].command, ['sleep', '1']);
        assert.equal(got.spec.terminationGracePeriodSeconds, 30);
      });

      it('expose deployment', async () => {
        assert.equal((await env.ok(bin, ['expose', 'deployment', 'web', '-n', ns, '--port=81', '--target-port=8080', '--name=web-svc'])).trim(), 'service/web-svc exposed');
        const got = await getJson(bin, 'service', 'web-svc', '-n', ns);
        assert.deepEqual(got.spec.selector, { app: 'web' });
        assert.deepEqual(got.spec.ports, [{ protocol: 'TCP', port: 81, targetPort: 8080 }]);
      });
    });
  }
});
