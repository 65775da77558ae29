// kubectl auth against the in-process server's RBAC: `auth can-i` (as the admin with --as, and with a
// ServiceAccount's own token) answers exactly what the authorizer then does, `auth can-i --list`
// shows the account's rules, `auth whoami` names the account, and a refused `get` prints the
// Forbidden message kube-apiserver sends.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();
const SA = 'system:serviceaccount:default:op';

describe('kubectl auth against RBAC', () => {
  let env: KubectlEnv;
  let saKubeconfig: string;
  before(async () => {
    env = await startKubectlEnv();
    const bin = binaries[0];
    if (bin === undefined) return;
    await env.ok(bin, ['create', 'serviceaccount', 'op']);
    await env.ok(bin, ['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps']);
    await env.ok(bin, ['create', 'rolebinding', 'cm-reader', '--role=cm-reader', '--serviceaccount=default:op']);
    const { token } = env.server.issueServiceAccountToken({ namespace: 'default', name: 'op' });
    const kubeconfig = structuredClone(env.server.kubeconfig);
    kubeconfig.users[0]!.user.token = token;
    saKubeconfig = await env.manifest('sa.kubeconfig', stringify(kubeconfig));
  });
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      it('auth can-i --as the ServiceAccount says yes exactly to what its Role grants', async () => {
        assert.equal((await env.run(bin, ['auth', 'can-i', 'list', 'configmaps', '--as', SA])).stdout.trim(), 'yes');
        const no = await env.run(bin, ['auth', 'can-i', 'delete', 'configmaps', '--as', SA]);
        assert.equal(no.stdout.trim(), 'no');
        assert.equal(no.code, 1);
        assert.equal((await env.run(bin, ['auth', 'can-i', 'list', 'configmaps', '-n', 'kube-system', '--as', SA])).stdout.trim(), 'no');
        assert.equal((await env.run(bin, ['auth', 'can-i', 'delete', 'configmaps'])).stdout.trim(), 'yes'); // the admin
      });

      it('answers for the ServiceAccount with its own token: can-i, can-i --list, whoami and a refused get', async () => {
        const as = ['--kubeconfig', saKubeconfig];
        assert.equal((await env.run(bin, [...as, 'auth', 'can-i', 'get', 'configmaps'])).stdout.trim(), 'yes');
        assert.equal((await env.run(bin, [...as, 'auth', 'can-i', 'list', 'secrets'])).stdout.trim(), 'no');
        const list = await env.ok(bin, [...as, 'auth', 'can-i', '--list']);
        assert.match(list, /^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
        // `auth whoami` asks authentication.k8s.io/v1 from kubectl 1.28 on (older ones ask the alpha and beta APIs only).
        const minor = /^1\.(\d+)$/.exec(bin.version)?.[1];
        if (minor === undefined || Number(minor) >= 28) assert.match(await env.ok(bin, [...as, 'auth', 'whoami']), new RegExp(SA));
        const refused = await env.run(bin, [...as, 'get', 'secrets']);
        assert.notEqual(refused.code, 0);
        assert.match(
          refused.stderr,
          /secrets is forbidden: User "system:serviceaccount:default:op" cannot list resource "secrets" in API group "" in the namespace "default"/,
        );
      });
    });
  }
});
