// kubectl's typed commands (`create namespace|configmap|secret|deployment|service|serviceaccount|
// job|cronjob|role|rolebinding|clusterrole|clusterrolebinding|ingress|poddisruptionbudget|quota|
// priorityclass|token`, `run`, `debug --copy-to`, `autoscale`, `drain`, `expose`): from 1.32 on,
// `create`, `debug`, `autoscale` and `drain` (its DeleteOptions) send protobuf bodies, so each
// stored object is read back with `get -o json` and checked field by field. Runs on the usual oldest
// and newest kubectl and on every installed version from 1.32 (the protobuf senders).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KUBECTL_HINT, kubectlBinariesWithEvery, startKubectlEnv } from './harness.js';
import type { KubectlBinary, KubectlEnv } from './harness.js';

const binaries = kubectlBinariesWithEvery({ major: 1, minor: 32 });

describe('kubectl typed create commands', () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  it('runs with a kubectl that sends protobuf bodies (1.32 or later)', () => {
    assert.ok(
      binaries.some((b) => /^1\.(3[2-9]|[4-9]\d)$/.test(b.version)),
      `found ${binaries.map((b) => b.version).join(', ') || 'no kubectl'}; ${KUBECTL_HINT}`,
    );
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      const ns = `typed-${bin.version.replace(/\./g, '-')}`;
      const getJson = async (b: KubectlBinary, ...args: string[]): Promise<any> =>
        JSON.parse(await env.ok(b, ['get', ...args, '-o', 'json']));

      it('create namespace', async () => {
        assert.equal((await env.ok(bin, ['create', 'namespace', ns])).trim(), `namespace/${ns} created`);
        const got = await getJson(bin, 'namespace', ns);
        assert.equal(got.metadata.name, ns);
        assert.equal(got.status.phase, 'Active');
        assert.deepEqual(got.spec.finalizers, ['kubernetes']);
      });

      it('create configmap --from-literal', async () => {
        assert.equal(
          (
            await env.ok(bin, [
              'create',
              'configmap',
              'settings',
              '-n',
              ns,
              '--from-literal=mode=fast',
              '--from-literal=empty=',
              '--from-literal=text=a b=c',
            ])
          ).trim(),
          'configmap/settings created',
        );
        const got = await getJson(bin, 'configmap', 'settings', '-n', ns);
        assert.deepEqual(got.data, { mode: 'fast', empty: '', text: 'a b=c' });
        assert.equal(got.metadata.namespace, ns);
        assert.equal(got.binaryData, undefined);
      });

      it('create configmap --from-file: text to data, binary to binaryData', async () => {
        const bytes = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80]);
        const binary = join(env.dir, `blob-${bin.version}.bin`);
        await writeFile(binary, bytes);
        const text = await env.manifest(`greeting-${bin.version}.txt`, 'hello\n');
        await env.ok(bin, ['create', 'configmap', 'files', '-n', ns, `--from-file=blob.bin=${binary}`, `--from-file=greeting.txt=${text}`]);
        const got = await getJson(bin, 'configmap', 'files', '-n', ns);
        assert.deepEqual(got.data, { 'greeting.txt': 'hello\n' });
        assert.deepEqual(got.binaryData, { 'blob.bin': bytes.toString('base64') });
      });

      it('create secret generic --from-literal', async () => {
        assert.equal(
          (
            await env.ok(bin, ['create', 'secret', 'generic', 'creds', '-n', ns, '--from-literal=user=admin', '--from-literal=pass=s3cr=t'])
          ).trim(),
          'secret/creds created',
        );
        const got = await getJson(bin, 'secret', 'creds', '-n', ns);
        assert.equal(got.type, 'Opaque');
        assert.deepEqual(got.data, { user: Buffer.from('admin').toString('base64'), pass: Buffer.from('s3cr=t').toString('base64') });
      });

      it('create deployment --image --replicas --port', async () => {
        assert.equal(
          (await env.ok(bin, ['create', 'deployment', 'web', '-n', ns, '--image=nginx:1.27', '--replicas=3', '--port=8080'])).trim(),
          'deployment.apps/web created',
        );
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
        assert.equal(
          (await env.ok(bin, ['create', 'service', 'clusterip', 'api', '-n', ns, '--tcp=80:8080', '--tcp=443'])).trim(),
          'service/api created',
        );
        const got = await getJson(bin, 'service', 'api', '-n', ns);
        assert.equal(got.spec.type, 'ClusterIP');
        assert.match(got.spec.clusterIP, /^\d+\.\d+\.\d+\.\d+$/);
        assert.deepEqual(got.spec.selector, { app: 'api' });
        assert.deepEqual(got.spec.ports, [
          { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: '443', protocol: 'TCP', port: 443, targetPort: 443 },
        ]);
      });

      it('create service nodeport --node-port and create service externalname', async () => {
        await env.ok(bin, ['create', 'service', 'nodeport', 'edge', '-n', ns, '--tcp=80:8080', '--node-port=30080']);
        const edge = await getJson(bin, 'service', 'edge', '-n', ns);
        assert.equal(edge.spec.type, 'NodePort');
        assert.deepEqual(edge.spec.ports, [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 }]);
        await env.ok(bin, ['create', 'service', 'externalname', 'upstream', '-n', ns, '--external-name=example.com']);
        const upstream = await getJson(bin, 'service', 'upstream', '-n', ns);
        assert.equal(upstream.spec.type, 'ExternalName');
        assert.equal(upstream.spec.externalName, 'example.com');
      });

      it('create serviceaccount', async () => {
        assert.equal((await env.ok(bin, ['create', 'serviceaccount', 'robot', '-n', ns])).trim(), 'serviceaccount/robot created');
        const got = await getJson(bin, 'serviceaccount', 'robot', '-n', ns);
        assert.equal(got.metadata.name, 'robot');
        assert.equal(got.metadata.namespace, ns);
        assert.equal(got.automountServiceAccountToken, undefined);
      });

      it('create token for a service account, with audiences and a duration', async () => {
        const token = (await env.ok(bin, ['create', 'token', 'robot', '-n', ns, '--audience=vault', '--duration=2h'])).trim();
        const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
          sub: string;
          aud: string[];
          iat: number;
          exp: number;
        };
        assert.equal(claims.sub, `system:serviceaccount:${ns}:robot`);
        assert.deepEqual(claims.aud, ['vault']);
        assert.equal(claims.exp - claims.iat, 7200);
      });

      it('run --image with labels, env, a port and a command', async () => {
        assert.equal(
          (
            await env.ok(bin, [
              'run',
              'shell',
              '-n',
              ns,
              '--image=busybox:1.36',
              '--labels=app=shell,tier=debug',
              '--env=GREETING=hi',
              '--port=9000',
              '--',
              'sleep',
              '3600',
            ])
          ).trim(),
          'pod/shell created',
        );
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
        await env.ok(bin, [
          'debug',
          'shell',
          '-n',
          ns,
          '--copy-to=shell-copy',
          '--image=busybox:1.37',
          '--container=dbg',
          '--',
          'sleep',
          '1',
        ]);
        const got = await getJson(bin, 'pod', 'shell-copy', '-n', ns);
        assert.deepEqual(
          got.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`),
          ['shell=busybox:1.36', 'dbg=busybox:1.37'],
        );
        assert.deepEqual(got.spec.containers[0].env, [{ name: 'GREETING', value: 'hi' }]);
        assert.deepEqual(got.spec.containers[1].command, ['sleep', '1']);
        assert.equal(got.spec.terminationGracePeriodSeconds, 30);
      });

      it('create job and create cronjob, then create job --from=cronjob', async () => {
        assert.equal(
          (await env.ok(bin, ['create', 'job', 'once', '-n', ns, '--image=busybox', '--', 'echo', 'hi'])).trim(),
          'job.batch/once created',
        );
        const job = await getJson(bin, 'job', 'once', '-n', ns);
        assert.deepEqual(
          job.spec.template.spec.containers.map((c: { name: string; command: string[] }) => [c.name, ...c.command]),
          [['once', 'echo', 'hi']],
        );
        assert.equal(job.spec.template.spec.restartPolicy, 'Never');
        assert.equal(
          (await env.ok(bin, ['create', 'cronjob', 'nightly', '-n', ns, '--image=busybox', '--schedule=0 3 * * *', '--', 'date'])).trim(),
          'cronjob.batch/nightly created',
        );
        const cron = await getJson(bin, 'cronjob', 'nightly', '-n', ns);
        assert.equal(cron.spec.schedule, '0 3 * * *');
        assert.deepEqual(cron.spec.jobTemplate.spec.template.spec.containers[0].command, ['date']);
        assert.equal(
          (await env.ok(bin, ['create', 'job', 'manual', '-n', ns, '--from=cronjob/nightly'])).trim(),
          'job.batch/manual created',
        );
        const manual = await getJson(bin, 'job', 'manual', '-n', ns);
        assert.equal(manual.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual');
        assert.deepEqual(
          manual.metadata.ownerReferences.map((r: { kind: string; name: string; uid: string }) => [r.kind, r.name, r.uid]),
          [['CronJob', 'nightly', cron.metadata.uid]],
        );
      });

      it('create role, rolebinding, clusterrole and clusterrolebinding', async () => {
        const cluster = `reader-${bin.version.replace(/\./g, '-')}`;
        assert.match(
          await env.ok(bin, ['create', 'role', 'pod-reader', '-n', ns, '--verb=get,list', '--resource=pods,deployments.apps']),
          /role.rbac.authorization.k8s.io\/pod-reader created/,
        );
        assert.deepEqual((await getJson(bin, 'role', 'pod-reader', '-n', ns)).rules, [
          { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] },
        ]);
        await env.ok(bin, [
          'create',
          'rolebinding',
          'read-pods',
          '-n',
          ns,
          '--role=pod-reader',
          '--user=alice',
          `--serviceaccount=${ns}:robot`,
        ]);
        const binding = await getJson(bin, 'rolebinding', 'read-pods', '-n', ns);
        assert.deepEqual(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
        assert.deepEqual(binding.subjects, [
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
          { kind: 'ServiceAccount', name: 'robot', namespace: ns },
        ]);
        await env.ok(bin, ['create', 'clusterrole', cluster, '--verb=get', '--non-resource-url=/logs/*']);
        assert.deepEqual((await getJson(bin, 'clusterrole', cluster)).rules, [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }]);
        await env.ok(bin, ['create', 'clusterrolebinding', cluster, `--clusterrole=${cluster}`, '--group=auditors']);
        assert.deepEqual((await getJson(bin, 'clusterrolebinding', cluster)).subjects, [
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'auditors' },
        ]);
      });

      it('create ingress and create poddisruptionbudget', async () => {
        await env.ok(bin, [
          'create',
          'ingress',
          'site',
          '-n',
          ns,
          '--class=nginx',
          '--rule=example.com/api*=api:80,tls=site-cert',
          '--default-backend=web-svc:http',
        ]);
        const ing = await getJson(bin, 'ingress', 'site', '-n', ns);
        assert.deepEqual(ing.spec, {
          ingressClassName: 'nginx',
          defaultBackend: { service: { name: 'web-svc', port: { name: 'http' } } },
          tls: [{ hosts: ['example.com'], secretName: 'site-cert' }],
          rules: [
            {
              host: 'example.com',
              http: { paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 80 } } } }] },
            },
          ],
        });
        await env.ok(bin, ['create', 'poddisruptionbudget', 'web-pdb', '-n', ns, '--selector=app=web', '--min-available=50%']);
        assert.deepEqual((await getJson(bin, 'pdb', 'web-pdb', '-n', ns)).spec, {
          minAvailable: '50%',
          selector: { matchLabels: { app: 'web' } },
        });
      });

      it('create quota and create priorityclass', async () => {
        await env.ok(bin, ['create', 'quota', 'small', '-n', ns, '--hard=cpu=1,pods=2', '--scopes=BestEffort']);
        assert.deepEqual((await getJson(bin, 'quota', 'small', '-n', ns)).spec, { hard: { cpu: '1', pods: '2' }, scopes: ['BestEffort'] });
        const pc = `urgent-${bin.version.replace(/\./g, '-')}`;
        await env.ok(bin, ['create', 'priorityclass', pc, '--value=1000', '--description=first', '--preemption-policy=Never']);
        const got = await getJson(bin, 'priorityclass', pc);
        assert.deepEqual([got.value, got.globalDefault, got.description, got.preemptionPolicy], [1000, undefined, 'first', 'Never']);
      });

      // Before 1.33, kubectl autoscale posts autoscaling/v1, which this server does not serve.
      if (/^1\.(3[3-9]|[4-9]\d)$/.test(bin.version)) {
        it('autoscale deployment (autoscaling/v2)', async () => {
          assert.match(
            await env.ok(bin, ['autoscale', 'deployment', 'web', '-n', ns, '--min=2', '--max=6', '--cpu-percent=70']),
            /horizontalpodautoscaler.autoscaling\/web autoscaled/,
          );
          const hpa = await getJson(bin, 'hpa', 'web', '-n', ns);
          assert.deepEqual(hpa.spec, {
            scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
            minReplicas: 2,
            maxReplicas: 6,
            metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
          });
        });
      }

      it('drain --disable-eviction deletes the pods bound to a node (protobuf DeleteOptions from 1.32)', async () => {
        const node = `node-${bin.version.replace(/\./g, '-')}`;
        await env.ok(bin, [
          'create',
          '-f',
          await env.manifest(`${node}.json`, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: node } })),
        ]);
        const bound = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'bound', namespace: ns },
          spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }] },
        };
        await env.ok(bin, ['create', '-f', await env.manifest(`bound-${node}.json`, JSON.stringify(bound))]);
        const out = await env.ok(bin, ['drain', node, '--disable-eviction', '--force', '--grace-period=0', '--timeout=15s']);
        assert.match(out, /pod\/bound deleted/);
        assert.match(out, new RegExp(`node/${node} drained`));
        assert.match((await env.run(bin, ['get', 'pod', 'bound', '-n', ns])).stderr, /pods "bound" not found/);
      });

      it('expose deployment', async () => {
        assert.equal(
          (await env.ok(bin, ['expose', 'deployment', 'web', '-n', ns, '--port=81', '--target-port=8080', '--name=web-svc'])).trim(),
          'service/web-svc exposed',
        );
        const got = await getJson(bin, 'service', 'web-svc', '-n', ns);
        assert.deepEqual(got.spec.selector, { app: 'web' });
        assert.deepEqual(got.spec.ports, [{ protocol: 'TCP', port: 81, targetPort: 8080 }]);
      });
    });
  }
});
