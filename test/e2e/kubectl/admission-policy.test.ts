// kubectl (oldest and newest installed) with ValidatingAdmissionPolicies: a policy and its
// binding installed with `kubectl apply`, listed with kube-apiserver's columns, then an apply the
// policy denies (kubectl prints the policy's message) and one it only warns about.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWithKubectl } from './harness.js';

describeWithKubectl('kubectl with ValidatingAdmissionPolicies', {}, ({ env, bin, v }) => {
  const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-keys-${v}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
    namespaceSelector:
      matchLabels:
        policy: ${v}
  validations:
  - expression: "!has(object.data) || object.data.size() <= 2"
    messageExpression: "'a ConfigMap may have at most 2 keys, not ' + string(object.data.size())"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-keys-${v}-deny
spec:
  policyName: max-keys-${v}
  validationActions: [Deny]
  matchResources:
    objectSelector:
      matchExpressions:
      - {key: lenient, operator: DoesNotExist}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-keys-${v}-warn
spec:
  policyName: max-keys-${v}
  validationActions: [Warn]
  matchResources:
    objectSelector:
      matchLabels: {lenient: "yes"}
---
apiVersion: v1
kind: Namespace
metadata:
  name: vap-${v}
  labels: {policy: "${v}"}
`;
  const configMap = (name: string, labels: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: vap-${v}
  labels: {${labels}}
data: {a: "1", b: "2", c: "3"}
`;

  it('installs a policy and its bindings with kubectl apply and lists them with their columns', async () => {
    const file = await env.manifest(`vap-${v}.yaml`, policy);
    const out = await env.ok(bin, ['apply', '-f', file]);
    assert.match(out, new RegExp(`validatingadmissionpolicy.admissionregistration.k8s.io/max-keys-${v} created`));
    assert.match(out, new RegExp(`validatingadmissionpolicybinding.admissionregistration.k8s.io/max-keys-${v}-deny created`));
    const policies = await env.ok(bin, ['get', 'validatingadmissionpolicies', `max-keys-${v}`]);
    assert.match(policies, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/m);
    assert.match(policies, new RegExp(`^max-keys-${v}\\s+1\\s+<unset>\\s+\\S+$`, 'm'));
    const bindings = await env.ok(bin, ['get', 'validatingadmissionpolicybindings', `max-keys-${v}-deny`]);
    assert.match(bindings, /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE$/m);
  });

  it('refuses an apply the Deny binding denies, with the policy message', async () => {
    const file = await env.manifest(`cm-denied-${v}.yaml`, configMap('too-big', ''));
    const r = await env.run(bin, ['apply', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      new RegExp(
        `ValidatingAdmissionPolicy 'max-keys-${v}' with binding 'max-keys-${v}-deny' denied request: a ConfigMap may have at most 2 keys, not 3`,
      ),
    );
  });

  it('prints the Warn binding’s warning and applies', async () => {
    const file = await env.manifest(`cm-warned-${v}.yaml`, configMap('warned', 'lenient: "yes"'));
    const r = await env.run(bin, ['apply', '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/warned created/);
    assert.match(
      r.stderr,
      new RegExp(
        `Warning: Validation failed for ValidatingAdmissionPolicy 'max-keys-${v}' with binding 'max-keys-${v}-warn': a ConfigMap may have at most 2 keys, not 3`,
      ),
    );
  });
});
