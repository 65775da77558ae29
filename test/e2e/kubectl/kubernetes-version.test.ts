// `converge apiserver --kubernetes-version 1.31` as a user runs it, asked by real kubectl binaries
// (oldest usable and newest installed): `kubectl version` reports 1.31 without the emulation fields
// 1.33 added, `kubectl api-versions` lists what 1.31 served of the kinds the server has, and
// `kubectl api-resources` has no MutatingAdmissionPolicy, which 1.36 made GA. An unsupported
// version is refused with exit status 2 before anything listens.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { runConverge, startApiserverProcess, type ApiserverProcess } from '../apiserver-process.js';
import { KUBECTL_HINT, kubectlBinaries, type KubectlBinary } from './harness.js';

/** The group-versions Kubernetes 1.31 serves by default, of the kinds Converge serves. */
const API_VERSIONS_1_31 = [
  'admissionregistration.k8s.io/v1',
  'apiextensions.k8s.io/v1',
  'apiregistration.k8s.io/v1',
  'apps/v1',
  'authentication.k8s.io/v1',
  'authorization.k8s.io/v1',
  'autoscaling/v2',
  'batch/v1',
  'coordination.k8s.io/v1',
  'discovery.k8s.io/v1',
  'events.k8s.io/v1',
  'networking.k8s.io/v1',
  'policy/v1',
  'rbac.authorization.k8s.io/v1',
  'scheduling.k8s.io/v1',
  'storage.k8s.io/v1',
  'v1',
];

const binaries = kubectlBinaries();

describe('converge apiserver --kubernetes-version 1.31, asked by kubectl', { skip: binaries.length === 0 ? KUBECTL_HINT : false }, () => {
  let server: ApiserverProcess;
  before(async () => {
    server = await startApiserverProcess(['--kubernetes-version', '1.31']);
  });
  after(() => server?.stop());

  const kubectl = (bin: KubectlBinary, args: readonly string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      const env = { ...process.env, KUBECONFIG: server.kubeconfig, HOME: server.dir };
      execFile(
        bin.path,
        [`--cache-dir=${join(server.dir, 'cache', bin.version)}`, ...args],
        { env, timeout: 20_000 },
        (err, stdout, stderr) =>
          err === null ? resolve(stdout) : reject(new Error(`kubectl ${args.join(' ')}: ${String(err)}\n${stderr}`)),
      );
    });

  for (const bin of binaries) {
    it(`kubectl ${bin.version} version reports the server as 1.31`, async () => {
      const { serverVersion } = JSON.parse(await kubectl(bin, ['version', '-o', 'json'])) as { serverVersion: Record<string, string> };
      assert.equal(serverVersion['major'], '1');
      assert.equal(serverVersion['minor'], '31');
      assert.equal(serverVersion['gitVersion'], 'v1.31.0-converge');
      assert.equal(serverVersion['emulationMinor'], undefined);
    });

    it(`kubectl ${bin.version} api-versions and api-resources list what 1.31 served`, async () => {
      assert.deepEqual((await kubectl(bin, ['api-versions'])).trim().split('\n'), API_VERSIONS_1_31);
      const admission = await kubectl(bin, ['api-resources', '--api-group=admissionregistration.k8s.io', '-o', 'name']);
      assert.deepEqual(admission.trim().split('\n').sort(), [
        'mutatingwebhookconfigurations.admissionregistration.k8s.io',
        'validatingadmissionpolicies.admissionregistration.k8s.io',
        'validatingadmissionpolicybindings.admissionregistration.k8s.io',
        'validatingwebhookconfigurations.admissionregistration.k8s.io',
      ]);
    });
  }

  it('refuses an unsupported version with exit status 2, naming the supported range', async () => {
    const p = runConverge(['apiserver', '--kubernetes-version', '1.30']);
    assert.equal(await p.exited, 2);
    assert.match(p.err(), /^converge: --kubernetes-version: kubernetesVersion "1\.30" is not supported: choose 1\.31 to 1\.36\n/);
    assert.equal(p.out(), '');
  });
});
