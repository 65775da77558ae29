// kubectl against the in-process server on the built-in kinds' schemas: `explain` of nested
// Deployment fields with Kubernetes' own descriptions, and `apply` of a Deployment with a typo'd
// field — refused with kube-apiserver's strict decoding error by default, a Warning with
// `--validate=warn`, on the oldest and newest kubectl installed.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlBinaries, startKubectlEnv } from './harness.js';
import type { KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();

const typoed = (ns: string, name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  replica: 3
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: app
        image: nginx:1.27
`;

describe('kubectl on the built-in kinds’ schemas', () => {
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
      const ns = `explain-${bin.version.replace(/\./g, '-')}`;

      it('explains deployment.spec.replicas with its type and Kubernetes’ description', async () => {
        const out = await env.ok(bin, ['explain', 'deployment.spec.replicas']);
        assert.match(out, /KIND:\s+Deployment/);
        assert.match(out, /VERSION:\s+v1/);
        assert.match(out, /replicas\s+<integer>/);
        assert.match(out, /Number of desired pods\./);
      });

      it('explains deployment.spec.template.spec.containers.image through the pod template and container schemas', async () => {
        const out = await env.ok(bin, ['explain', 'deployment.spec.template.spec.containers.image']);
        assert.match(out, /image\s+<string>/);
        assert.match(out, /Container image name\./);
      });

      it('explains every resource the server lists, each with Kubernetes’ description of its kind', async () => {
        const rows = (await env.ok(bin, ['api-resources', '--no-headers'])).trim().split('\n');
        assert.ok(rows.length > 40, `${rows.length} resources`);
        for (const row of rows) {
          const cells = row.trim().split(/\s+/);
          const [name, apiVersion, kind] = [cells[0]!, cells[cells.length - 3]!, cells[cells.length - 1]!];
          const out = await env.ok(bin, ['explain', name.split('.')[0]!, `--api-version=${apiVersion}`]);
          assert.match(out, new RegExp(`KIND:\\s+${kind}\\b`), row);
          assert.doesNotMatch(out, /without a published field schema/, row);
        }
      });

      it('refuses to apply a Deployment with a typo’d field with kube-apiserver’s strict decoding error', async () => {
        await env.ok(bin, ['create', 'namespace', ns]);
        const r = await env.run(bin, ['apply', '-f', await env.manifest(`typo-${ns}.yaml`, typoed(ns, 'web'))]);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /Error from server \(BadRequest\): error when creating ".*typo-.*\.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec\.replica"/,
        );
        const get = await env.run(bin, ['get', 'deployment', 'web', '-n', ns]);
        assert.match(get.stderr, /NotFound/);
      });

      it('applies it with --validate=warn, printing the server’s Warning and dropping the field', async () => {
        const r = await env.run(bin, ['apply', '--validate=warn', '-f', await env.manifest(`warn-${ns}.yaml`, typoed(ns, 'lenient'))]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /Warning: unknown field "spec\.replica"/);
        assert.match(r.stdout, /deployment\.apps\/lenient created/);
        const spec = JSON.parse(await env.ok(bin, ['get', 'deployment', 'lenient', '-n', ns, '-o', 'jsonpath={.spec}'])) as Record<
          string,
          unknown
        >;
        assert.equal(spec['replica'], undefined);
      });
    });
  }
});
