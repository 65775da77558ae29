// Admission policies through the typed client on a TestEnv: a MutatingAdmissionPolicy's label on a
// create and a dry-run create, and a ValidatingAdmissionPolicy that reads it (the mutation runs
// first) refusing a ConfigMap the mutating policy's match condition skipped; and a policy reading
// `request.userInfo` sees who sent the write (a ServiceAccount, not the admin).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, defineResource, RoleResource, RoleBindingResource } from 'kube-converge/meta';
import { createClient, isInvalid } from 'kube-converge/client';
import { TestEnv } from 'kube-converge/testing';

const group = 'admissionregistration.k8s.io';
const resource = (kind: string, plural: string) => defineResource({ group, version: 'v1', kind, plural, namespaced: false });
const MAP = resource('MutatingAdmissionPolicy', 'mutatingadmissionpolicies');
const MAPB = resource('MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings');
const VAP = resource('ValidatingAdmissionPolicy', 'validatingadmissionpolicies');
const VAPB = resource('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings');
const configMaps = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };

describe('admission policies through the client', () => {
  it('mutates creates and dry-run creates, and validating policies see the mutated object', async () => {
    await using env = await TestEnv.start();
    const c = env.client;
    const meta = (name: string) => ({ apiVersion: `${group}/v1`, metadata: { name } });
    await c.create(MAP, {
      ...meta('tier'),
      kind: 'MutatingAdmissionPolicy',
      spec: {
        matchConstraints: configMaps,
        matchConditions: [{ name: 'not-raw', expression: "!object.metadata.name.startsWith('raw-')" }],
        mutations: [
          {
            patchType: 'ApplyConfiguration',
            applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"tier": "web"}}}' },
          },
        ],
      },
    });
    await c.create(MAPB, { ...meta('tier'), kind: 'MutatingAdmissionPolicyBinding', spec: { policyName: 'tier' } });
    await c.create(VAP, {
      ...meta('has-tier'),
      kind: 'ValidatingAdmissionPolicy',
      spec: {
        matchConstraints: configMaps,
        validations: [{ expression: "has(object.metadata.labels) && 'tier' in object.metadata.labels", message: 'needs a tier' }],
      },
    });
    await c.create(VAPB, {
      ...meta('has-tier'),
      kind: 'ValidatingAdmissionPolicyBinding',
      spec: { policyName: 'has-tier', validationActions: ['Deny'] },
    });

    const cm = (name: string) => ({ metadata: { name, namespace: 'default' }, data: { a: '1' } });
    const created = await c.create(ConfigMapResource, cm('app'));
    assert.deepEqual(created.metadata.labels, { tier: 'web' });
    const dry = await c.create(ConfigMapResource, cm('dry'), { dryRun: true });
    assert.deepEqual(dry.metadata.labels, { tier: 'web' });
    await assert.rejects(c.create(ConfigMapResource, cm('raw-app')), (e) => isInvalid(e) && /needs a tier/.test((e as Error).message));
  });

  it('gives policies the user who sent the write as request.userInfo', async () => {
    await using env = await TestEnv.start();
    const c = env.client;
    const meta = (name: string) => ({ apiVersion: `${group}/v1`, metadata: { name } });
    await c.create(VAP, {
      ...meta('no-serviceaccounts'),
      kind: 'ValidatingAdmissionPolicy',
      spec: {
        matchConstraints: configMaps,
        validations: [
          {
            expression: "!request.userInfo.username.startsWith('system:serviceaccount:')",
            messageExpression: "'not for ' + request.userInfo.username",
          },
        ],
      },
    });
    await c.create(VAPB, {
      ...meta('no-serviceaccounts'),
      kind: 'ValidatingAdmissionPolicyBinding',
      spec: { policyName: 'no-serviceaccounts', validationActions: ['Deny'] },
    });
    await c.create(RoleResource, {
      metadata: { namespace: 'default', name: 'cm-writer' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    });
    await c.create(RoleBindingResource, {
      metadata: { namespace: 'default', name: 'cm-writer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' },
      subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }],
    });
    const sa = await env.serviceAccount({ namespace: 'default', name: 'op' });
    const asOp = createClient({ config: sa.restConfig() });
    try {
      const cm = (name: string) => ({ metadata: { name, namespace: 'default' } });
      await assert.rejects(
        asOp.create(ConfigMapResource, cm('by-op')),
        (e) => isInvalid(e) && /not for system:serviceaccount:default:op/.test((e as Error).message),
      );
      await c.create(ConfigMapResource, cm('by-admin'));
    } finally {
      asOp.close();
    }
  });
});
