// kubectl (oldest and newest installed) with MutatingAdmissionPolicies: a policy and its binding
// installed with `kubectl apply` (at v1, as 1.36 serves it), listed with
// kube-apiserver's columns, then a ConfigMap applied (server-side and client-side, and as a dry
// run) comes back with the label the policy sets, in a namespace the binding selects.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWithKubectl } from './harness.js';

describeWithKubectl('kubectl with MutatingAdmissionPolicies', {}, ({ env, bin, v }) => {
  const ns = `map-${v}`;
  const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: owner-label-${v}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"owner": "team-" + object.metadata.namespace}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: owner-label-${v}
spec:
  policyName: owner-label-${v}
  matchResources:
    namespaceSelector:
      matchLabels: {map: "${v}"}
---
apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
  labels: {map: "${v}"}
`;
  const configMap = (name: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${ns}
data: {a: "1"}
`;

  it('installs a policy and its binding with kubectl apply and lists them with their columns', async () => {
    const file = await env.manifest(`map-${v}.yaml`, policy);
    const out = await env.ok(bin, ['apply', '-f', file]);
    assert.match(out, new RegExp(`mutatingadmissionpolicy.admissionregistration.k8s.io/owner-label-${v} created`));
    assert.match(out, new RegExp(`mutatingadmissionpolicybinding.admissionregistration.k8s.io/owner-label-${v} created`));
    const policies = await env.ok(bin, ['get', 'mutatingadmissionpolicies', `owner-label-${v}`]);
    assert.match(policies, /^NAME\s+MUTATIONS\s+PARAMKIND\s+AGE$/m);
    assert.match(policies, new RegExp(`^owner-label-${v}\\s+1\\s+<unset>\\s+\\S+$`, 'm'));
  });

  it('explains the policy fields', async () => {
    const out = await env.ok(bin, [
      'explain',
      'mutatingadmissionpolicies.spec.reinvocationPolicy',
      '--api-version=admissionregistration.k8s.io/v1',
    ]);
    assert.match(out, /reinvocationPolicy/);
    assert.match(out, /IfNeeded/);
  });

  it('applies a ConfigMap that comes back with the label the policy set, client- and server-side', async () => {
    for (const [name, flags] of [
      ['client-side', []],
      ['server-side', ['--server-side']],
    ] as const) {
      const file = await env.manifest(`cm-${name}-${v}.yaml`, configMap(name));
      await env.ok(bin, ['apply', ...flags, '-f', file]);
      const label = await env.ok(bin, ['get', 'configmap', name, '-n', ns, '-o', 'jsonpath={.metadata.labels.owner}']);
      assert.equal(label, `team-${ns}`, name);
    }
  });

  it('shows the mutation in a server dry run without storing the object', async () => {
    const file = await env.manifest(`cm-dry-${v}.yaml`, configMap('dry'));
    const out = await env.ok(bin, ['apply', '--dry-run=server', '-f', file, '-o', 'jsonpath={.metadata.labels.owner}']);
    assert.equal(out, `team-${ns}`);
    const r = await env.run(bin, ['get', 'configmap', 'dry', '-n', ns]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /not found/);
  });
});
