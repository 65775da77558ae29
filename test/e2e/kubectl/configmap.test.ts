// kubectl against the in-process server, on core objects: discovery, client-side apply twice,
// get (table and YAML), label, annotate, the three patch types, watch, delete.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { KUBECTL_HINT, kubectlBinaries, startKubectlEnv } from './harness.js';
import type { KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();

describe('kubectl on ConfigMaps', () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  it('has at least two kubectl versions to run with', () => {
    assert.ok(binaries.length >= 2, `found ${binaries.map((b) => b.path).join(', ') || 'no kubectl'}; ${KUBECTL_HINT}`);
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      const ns = `ns-${bin.version.replace(/\./g, '-')}`;
      const configMap = (data: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: ${ns}
data:
${data}`;

      it('talks HTTPS with the kubeconfig as written (CA and token), and is refused with another token', async () => {
        assert.match(env.server.url, /^https:/);
        assert.equal(JSON.parse(await env.ok(bin, ['get', '--raw', '/api'])).kind, 'APIVersions');
        const { parse, stringify } = await import('yaml');
        // A wrong token rather than none: without credentials kubectl would prompt for a password on a 401.
        const wrong = parse(env.server.kubeconfigYaml) as { users: { user: Record<string, unknown> }[] };
        wrong.users[0]!.user = { token: 'not-the-token' };
        const path = await env.manifest(`wrong-token-kubeconfig-${bin.version}`, stringify(wrong));
        const refused = await env.run(bin, ['--kubeconfig', path, 'get', 'configmaps']);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /Unauthorized|must be logged in/, refused.stderr);
      });

      it('lists the served resources with api-resources', async () => {
        const out = await env.ok(bin, ['api-resources']);
        assert.match(out, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
        assert.match(out, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
      });

      it('creates a namespace, then applies a ConfigMap twice: created, then unchanged', async () => {
        // `kubectl create namespace` (a typed client) sends protobuf from 1.32 on; manifests go as JSON.
        const nsFile = await env.manifest(`ns-${bin.version}.yaml`, `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`);
        assert.match(await env.ok(bin, ['create', '-f', nsFile]), new RegExp(`namespace/${ns} created`));
        const file = await env.manifest(`cm-${bin.version}.yaml`, configMap('  a: "1"\n'));
        assert.equal((await env.ok(bin, ['apply', '-f', file])).trim(), 'configmap/app-config created');
        assert.equal((await env.ok(bin, ['apply', '-f', file])).trim(), 'configmap/app-config unchanged');
        const changed = await env.manifest(`cm2-${bin.version}.yaml`, configMap('  b: "2"\n'));
        assert.equal((await env.ok(bin, ['apply', '-f', changed])).trim(), 'configmap/app-config configured');
        const data = JSON.parse(await env.ok(bin, ['get', 'configmap', 'app-config', '-n', ns, '-o', 'jsonpath={.data}']));
        assert.deepEqual(data, { b: '2' });
      });

      it('gets the ConfigMap as a table and as YAML', async () => {
        const table = await env.ok(bin, ['get', 'cm', '-n', ns]);
        assert.match(table, /^NAME\s+DATA\s+AGE$/m);
        assert.match(table, /^app-config\s+1\s+\d+s$/m);
        const yaml = await env.ok(bin, ['get', 'configmap', 'app-config', '-n', ns, '-o', 'yaml']);
        assert.match(yaml, /^kind: ConfigMap$/m);
        assert.match(yaml, /^ {2}resourceVersion: "\d+"$/m);
        assert.match(yaml, /kubectl.kubernetes.io\/last-applied-configuration/);
      });

      it('labels and annotates, then patches with strategic, merge and JSON patches', async () => {
        assert.match(await env.ok(bin, ['label', 'cm', 'app-config', '-n', ns, 'tier=web']), /configmap\/app-config labeled/);
        // kubectl 1.27 prints "annotate".
        assert.match(await env.ok(bin, ['annotate', 'cm', 'app-config', '-n', ns, 'owner=team-a']), /configmap\/app-config annotated?/);
        assert.match(await env.ok(bin, ['patch', 'cm', 'app-config', '-n', ns, '-p', '{"data":{"s":"strategic"}}']), /patched/);
        assert.match(
          await env.ok(bin, ['patch', 'cm', 'app-config', '-n', ns, '--type=merge', '-p', '{"data":{"m":"merge","b":null}}']),
          /patched/,
        );
        assert.match(
          await env.ok(bin, ['patch', 'cm', 'app-config', '-n', ns, '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"json"}]']),
          /patched/,
        );
        const got = JSON.parse(await env.ok(bin, ['get', 'cm', 'app-config', '-n', ns, '-o', 'json']));
        assert.deepEqual(got.data, { s: 'strategic', m: 'merge', j: 'json' });
        assert.equal(got.metadata.labels.tier, 'web');
        assert.equal(got.metadata.annotations.owner, 'team-a');
        const failed = await env.run(bin, [
          'patch',
          'cm',
          'app-config',
          '-n',
          ns,
          '--type=json',
          '-p',
          '[{"op":"test","path":"/data/j","value":"other"}]',
        ]);
        assert.notEqual(failed.code, 0);
        assert.match(failed.stderr, /test failed/);
      });

      it('streams changes with get -w', async () => {
        const watch = env.watch(bin, ['get', 'cm', '-n', ns, '-w']);
        try {
          await watch.waitFor(/^app-config\s/);
          const file = await env.manifest(
            `watched-${bin.version}.yaml`,
            `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n  namespace: ${ns}\ndata:\n  k: v\n`,
          );
          await env.ok(bin, ['create', '-f', file]);
          await watch.waitFor(/^watched\s+1\s/);
          await env.ok(bin, ['patch', 'cm', 'watched', '-n', ns, '--type=merge', '-p', '{"data":{"k2":"v2"}}']);
          await watch.waitFor(/^watched\s+2\s/);
        } finally {
          watch.stop();
        }
      });

      it('deletes and waits until the object is gone', async () => {
        assert.match(
          await env.ok(bin, ['delete', 'cm', 'watched', '-n', ns, '--wait=true', '--timeout=15s']),
          /configmap "watched" deleted/,
        );
        const gone = await env.run(bin, ['get', 'cm', 'watched', '-n', ns]);
        assert.notEqual(gone.code, 0);
        assert.match(gone.stderr, /configmaps "watched" not found/);
      });
    });
  }
});
