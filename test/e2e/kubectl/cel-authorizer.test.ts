// kubectl (oldest and newest installed) with a ValidatingAdmissionPolicy whose validation asks the
// CEL authorizer: two ServiceAccounts, each with its own token, may both create ConfigMaps, but only
// the one a Role lets read Secrets gets its ConfigMap past the policy; the other's `kubectl create`
// prints the policy's message, naming it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();

const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: secret-readers-only
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  validations:
  - expression: "authorizer.group('').resource('secrets').namespace(request.namespace).check('get').allowed()"
    reason: Forbidden
    messageExpression: "request.userInfo.username + ' may not read secrets'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: secret-readers-only
spec:
  policyName: secret-readers-only
  validationActions: [Deny]
`;

describe('kubectl with a policy that asks the CEL authorizer', () => {
  let env: KubectlEnv;
  const kubeconfigs = new Map<string, string>();
  before(async () => {
    env = await startKubectlEnv();
    const bin = binaries[0];
    if (bin === undefined) return;
    for (const sa of ['reader', 'writer']) await env.ok(bin, ['create', 'serviceaccount', sa]);
    await env.ok(bin, ['create', 'role', 'cm-writer', '--verb=create', '--resource=configmaps']);
    await env.ok(bin, [
      'create',
      'rolebinding',
      'cm-writer',
      '--role=cm-writer',
      '--serviceaccount=default:reader',
      '--serviceaccount=default:writer',
    ]);
    await env.ok(bin, ['create', 'role', 'secret-reader', '--verb=get', '--resource=secrets']);
    await env.ok(bin, ['create', 'rolebinding', 'secret-reader', '--role=secret-reader', '--serviceaccount=default:reader']);
    await env.ok(bin, ['apply', '-f', await env.manifest('policy.yaml', policy)]);
    for (const sa of ['reader', 'writer']) {
      const kubeconfig = structuredClone(env.server.kubeconfig);
      kubeconfig.users[0]!.user.token = env.server.issueServiceAccountToken({ namespace: 'default', name: sa }).token;
      kubeconfigs.set(sa, await env.manifest(`${sa}.kubeconfig`, stringify(kubeconfig)));
    }
  });
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      const v = bin.version.replace(/\./g, '-');
      const as = (sa: string, args: string[]) => ['--kubeconfig', kubeconfigs.get(sa)!, ...args];

      it('creates the ConfigMap of the ServiceAccount that may read Secrets', async () => {
        const out = await env.ok(bin, as('reader', ['create', 'configmap', `by-reader-${v}`, '--from-literal=a=1']));
        assert.match(out, new RegExp(`configmap/by-reader-${v} created`));
      });

      it("refuses the other one's, printing the policy's message", async () => {
        const r = await env.run(bin, as('writer', ['create', 'configmap', `by-writer-${v}`, '--from-literal=a=1']));
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          new RegExp(
            `configmaps "by-writer-${v}" is forbidden: ValidatingAdmissionPolicy 'secret-readers-only' with binding 'secret-readers-only' denied request: system:serviceaccount:default:writer may not read secrets`,
          ),
        );
      });
    });
  }
});
