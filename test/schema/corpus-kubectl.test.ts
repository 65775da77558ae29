// kubectl takes the corpus CRDs generated from the Certificate and ServiceMonitor definitions:
// `apply --dry-run=server` passes the server's CRD checks, and once they are installed a server-side
// dry run accepts an object the published kind takes and refuses one outside an enum or a pattern,
// naming the field.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from '../e2e/kubectl/harness.js';
import { Certificate } from './corpus/certificate.js';
import { ServiceMonitor } from './corpus/servicemonitor.js';

const binaries = kubectlBinaries();
const metadata = { name: 'corpus', namespace: 'default' };

describe('corpus CRDs with kubectl', { skip: binaries.length === 0 ? 'kubectl is not installed' : false }, () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  after(() => env.stop());

  for (const bin of binaries) {
    it(`kubectl ${bin.version}: apply --dry-run=server accepts the generated Certificate and ServiceMonitor CRDs`, async () => {
      for (const def of [Certificate, ServiceMonitor]) {
        const file = await env.manifest(`${def.kind}-crd.yaml`, stringify(def.crd()));
        const out = await env.ok(bin, ['apply', '--dry-run=server', '-f', file]);
        assert.match(
          out,
          new RegExp(`customresourcedefinition.apiextensions.k8s.io/${def.crd().metadata?.name} created \\(server dry run\\)`),
        );
      }
    });
  }

  it('installed, they take a valid object and refuse one outside an enum or a pattern in a server-side dry run', async () => {
    const bin = binaries[0]!;
    await env.installCrd('certificates.cert-manager.io', stringify(Certificate.crd()));
    await env.installCrd('servicemonitors.monitoring.coreos.com', stringify(ServiceMonitor.crd()));
    const apply = async (name: string, obj: object) =>
      env.run(bin, ['apply', '--dry-run=server', '-f', await env.manifest(name, stringify(obj))]);
    const cert = (privateKey: object) => ({
      apiVersion: Certificate.apiVersion,
      kind: 'Certificate',
      metadata,
      spec: { secretName: 'tls', issuerRef: { name: 'ca', kind: 'ClusterIssuer' }, privateKey },
    });
    const monitor = (interval: string) => ({
      apiVersion: ServiceMonitor.apiVersion,
      kind: 'ServiceMonitor',
      metadata,
      spec: { selector: { matchLabels: { app: 'web' } }, endpoints: [{ port: 'metrics', interval }] },
    });

    assert.match(
      (await apply('cert-ok.yaml', cert({ algorithm: 'ECDSA', size: 256 }))).stdout,
      /certificate.cert-manager.io\/corpus created/,
    );
    const badCert = await apply('cert-bad.yaml', cert({ algorithm: 'DSA' }));
    assert.notEqual(badCert.code, 0);
    assert.match(badCert.stderr, /spec\.privateKey\.algorithm: Unsupported value: "DSA"/);

    assert.match((await apply('monitor-ok.yaml', monitor('30s'))).stdout, /servicemonitor.monitoring.coreos.com\/corpus created/);
    const badMonitor = await apply('monitor-bad.yaml', monitor('30 seconds'));
    assert.notEqual(badMonitor.code, 0);
    assert.match(badMonitor.stderr, /spec\.endpoints\[0\]\.interval: Invalid value: "30 seconds"/);
  });
});
