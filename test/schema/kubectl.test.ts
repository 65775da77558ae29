// kubectl takes generated CRDs as they are: `apply --dry-run=server` of the files `converge generate`
// wrote (the Widget fixture's and the ApplicationRoute example's) passes the server's CRD checks, and
// once applied, a custom resource that breaks a rule is refused by a server-side dry run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from '../e2e/kubectl/harness.js';
import { Widget } from './widget.js';

const binaries = kubectlBinaries();
const example = new URL('../../examples/application-route/networking.converge.dev_applicationroutes.yaml', import.meta.url);

describe('generated CRDs with kubectl', { skip: binaries.length === 0 ? 'kubectl is not installed' : false }, () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  after(() => env.stop());

  for (const bin of binaries) {
    it(`kubectl ${bin.version}: apply --dry-run=server accepts the generated CRDs`, async () => {
      const widget = await env.manifest('widget-crd.yaml', stringify(Widget.crd()));
      const route = await env.manifest('route-crd.yaml', await readFile(example, 'utf8'));
      for (const file of [widget, route]) {
        const out = await env.ok(bin, ['apply', '--dry-run=server', '-f', file]);
        assert.match(out, /customresourcedefinition.apiextensions.k8s.io\/\S+ created \(server dry run\)/);
      }
    });
  }

  it('an installed generated CRD refuses a breaking object in a server-side dry run, with the CEL message', async () => {
    const bin = binaries[0]!;
    await env.installCrd('widgets.schema.converge.dev', stringify(Widget.crd()));
    const ok = await env.manifest(
      'ok.yaml',
      stringify({ apiVersion: Widget.apiVersion, kind: 'Widget', metadata: { name: 'a', namespace: 'default' }, spec: { replicas: 2 } }),
    );
    assert.match(await env.ok(bin, ['apply', '--dry-run=server', '-f', ok]), /widget.schema.converge.dev\/a created \(server dry run\)/);
    const bad = await env.manifest(
      'bad.yaml',
      stringify({
        apiVersion: Widget.apiVersion,
        kind: 'Widget',
        metadata: { name: 'b', namespace: 'default' },
        spec: { replicas: 1, minReplicas: 5 },
      }),
    );
    const r = await env.run(bin, ['apply', '--dry-run=server', '-f', bad]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /minReplicas must not exceed replicas/);
  });
});
