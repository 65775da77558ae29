// One server per supported Kubernetes version, in one process: the same CRD, custom resources, Pod
// and policies installed under each, and every version-dependent difference observed against what
// that Kubernetes release did (written out here as the spec, independently of the server's table).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { kubernetesVersions } from 'kube-converge/testing';
import { handleJson } from './helpers.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const PODS = '/api/v1/namespaces/default/pods';

/** What each release did, by minor: the expectations of this test. */
const release = (minor: number) => ({
  mutatingAdmissionPolicy: minor >= 36,
  podGeneration: minor >= 33,
  watchList: minor === 32 || minor >= 34,
  emulationFields: minor >= 33,
  shardSelector: minor >= 36,
  crdConditionObservedGeneration: minor >= 36,
});

function widgetCrd(maxLength: number) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { color: { type: 'string', maxLength }, size: { type: 'integer' } },
                  'x-kubernetes-validations': [{ rule: 'self.size >= 0', message: 'size must not be negative' }],
                },
              },
            },
          },
        },
      ],
    },
  };
}

const widget = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
};

const validatingPolicy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'no-purple' },
  spec: {
    matchConstraints: {
      resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }],
    },
    validations: [{ expression: "object.spec.color != 'purple'", message: 'no purple widgets' }],
  },
};
const validatingBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'no-purple' },
  spec: { policyName: 'no-purple', validationActions: ['Deny'] },
};
const mutatingPolicy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name: 'label-widgets' },
  spec: {
    matchConstraints: {
      resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }],
    },
    mutations: [
      {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"policed": "yes"}}}' },
      },
    ],
  },
};
const mutatingBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name: 'label-widgets' },
  spec: { policyName: 'label-widgets' },
};

async function expectStatus(s: ApiServer, method: string, path: string, status: number, body?: unknown) {
  const r = await handleJson(s, method, path, body);
  assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
  return r.body;
}

describe('every supported Kubernetes version, in one process', () => {
  it('lists 1.31 to 1.36, oldest first, and narrows to a range', () => {
    assert.deepEqual(kubernetesVersions(), ['1.31', '1.32', '1.33', '1.34', '1.35', '1.36']);
    assert.deepEqual(kubernetesVersions({ oldest: 'v1.33', newest: '1.34.2' }), ['1.33', '1.34']);
    assert.throws(() => kubernetesVersions({ oldest: '1.30' }), /not supported: choose 1\.31 to 1\.36/);
  });

  it('refuses a version outside the supported range when the server is made', () => {
    assert.throws(() => createApiServer({ kubernetesVersion: '1.30' }), /kubernetesVersion "1.30" is not supported: choose 1\.31 to 1\.36/);
    assert.throws(() => createApiServer({ kubernetesVersion: 'latest' }), /is not a Kubernetes version/);
  });

  it('defaults to the newest', async () => {
    const info = await expectStatus(createApiServer(), 'GET', '/version', 200);
    assert.equal(info.gitVersion, 'v1.36.0-converge');
  });

  for (const version of kubernetesVersions()) {
    const minor = Number(version.split('.')[1]);
    const expected = release(minor);

    it(`behaves as Kubernetes ${version}`, async () => {
      const s = createApiServer({ kubernetesVersion: version });
      try {
        // /version names the minor; the emulation fields came with 1.33.
        const info = await expectStatus(s, 'GET', '/version', 200);
        assert.equal(info.minor, String(minor));
        assert.equal(info.gitVersion, `v1.${minor}.0-converge`);
        assert.equal(info.emulationMinor, expected.emulationFields ? String(minor) : undefined);
        assert.equal(info.minCompatibilityMinor, expected.emulationFields ? String(minor - 1) : undefined);

        // Served APIs: MutatingAdmissionPolicy is there from 1.36 on, in discovery and on requests alike.
        const resources = (await expectStatus(s, 'GET', AR, 200)).resources.map((r: { name: string }) => r.name);
        assert.equal(resources.includes('mutatingadmissionpolicies'), expected.mutatingAdmissionPolicy);
        assert.equal(resources.includes('mutatingadmissionpolicybindings'), expected.mutatingAdmissionPolicy);
        assert.equal(resources.includes('validatingadmissionpolicies'), true);
        const aggregated = await s.handle({
          method: 'GET',
          path: '/apis',
          headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
        });
        const ar = JSON.parse(aggregated.body).items.find(
          (g: { metadata: { name: string } }) => g.metadata.name === 'admissionregistration.k8s.io',
        );
        const arResources = ar.versions.flatMap((v: { resources: { resource: string }[] }) => v.resources.map((r) => r.resource));
        assert.equal(arResources.includes('mutatingadmissionpolicies'), expected.mutatingAdmissionPolicy);
        assert.equal((await s.handle({ method: 'GET', path: '/apis/admissionregistration.k8s.io/v1beta1', headers: {} })).status, 404);

        // The same CRD and policies, installed under every version.
        const established = (await expectStatus(s, 'POST', CRDS, 201, widgetCrd(10))).status.conditions.find(
          (c: { type: string }) => c.type === 'Established',
        );
        assert.equal(established.observedGeneration, expected.crdConditionObservedGeneration ? 1 : undefined);
        await expectStatus(s, 'POST', `${AR}/validatingadmissionpolicies`, 201, validatingPolicy);
        await expectStatus(s, 'POST', `${AR}/validatingadmissionpolicybindings`, 201, validatingBinding);
        const mapStatus = expected.mutatingAdmissionPolicy ? 201 : 404;
        await expectStatus(s, 'POST', `${AR}/mutatingadmissionpolicies`, mapStatus, mutatingPolicy);
        await expectStatus(s, 'POST', `${AR}/mutatingadmissionpolicybindings`, mapStatus, mutatingBinding);

        // The CRD's rule and the validating policy hold everywhere; the mutating policy acts from 1.36.
        const red = await expectStatus(s, 'POST', WIDGETS, 201, widget('red', { color: 'red', size: 1 }));
        assert.equal(red.metadata.labels?.policed, expected.mutatingAdmissionPolicy ? 'yes' : undefined);
        const negative = await expectStatus(s, 'POST', WIDGETS, 422, widget('negative', { color: 'red', size: -1 }));
        assert.match(negative.message, /size must not be negative/);
        const purple = await expectStatus(s, 'POST', WIDGETS, 422, widget('purple', { color: 'purple', size: 1 }));
        assert.match(purple.message, /no purple widgets/);

        // selectableFields: beta and on by default in 1.31, GA in 1.32, so served in every supported version.
        await expectStatus(s, 'POST', WIDGETS, 201, widget('blue', { color: 'blue', size: 2 }));
        const blue = await expectStatus(s, 'GET', `${WIDGETS}?fieldSelector=spec.color%3Dblue`, 200);
        assert.deepEqual(
          blue.items.map((w: { metadata: { name: string } }) => w.metadata.name),
          ['blue'],
        );

        // shardSelector (new in 1.36): a shard too narrow to hold either widget; older servers ignore it.
        const shard = await expectStatus(
          s,
          'GET',
          `${WIDGETS}?shardSelector=${encodeURIComponent("shardRange(object.metadata.uid, '0x0', '0x1')")}`,
          200,
        );
        assert.equal(shard.items.length, expected.shardSelector ? 0 : 2);
        assert.equal(shard.metadata.shardInfo !== undefined, expected.shardSelector);

        // Ratcheting: beta and on by default since 1.30, GA in 1.33: a value made invalid by a
        // tightened schema may stay while it is left unchanged, in every supported version.
        const crd = await expectStatus(s, 'GET', `${CRDS}/widgets.example.com`, 200);
        await expectStatus(s, 'PUT', `${CRDS}/widgets.example.com`, 200, { ...widgetCrd(3), metadata: crd.metadata });
        const stored = await expectStatus(s, 'GET', `${WIDGETS}/blue`, 200);
        const kept = await expectStatus(s, 'PUT', `${WIDGETS}/blue`, 200, { ...stored, spec: { color: 'blue', size: 3 } });
        await expectStatus(s, 'PUT', `${WIDGETS}/blue`, 422, { ...kept, spec: { color: 'indigo', size: 3 } });

        // Pod metadata.generation: set and bumped by the server from 1.33 on, left unset before.
        const created = await expectStatus(s, 'POST', PODS, 201, pod);
        assert.equal(created.metadata.generation, expected.podGeneration ? 1 : undefined);
        const image = [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' }];
        const patched = await handleJson(s, 'PATCH', `${PODS}/p`, image, 'application/json-patch+json');
        assert.equal(patched.status, 200, patched.text);
        assert.equal(patched.body.metadata.generation, expected.podGeneration ? 2 : undefined);

        // WatchList: on in 1.32, off again in 1.33, on from 1.34; off, sendInitialEvents is refused.
        const watch = await s.handle({
          method: 'GET',
          path: `${WIDGETS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
          headers: { accept: 'application/json' },
        });
        if (expected.watchList) assert.equal(watch.status, 200, watch.body);
        else {
          assert.equal(watch.status, 422, watch.body);
          assert.match(watch.body, /sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled/);
        }

        // CEL: what each version's CEL environment offers (library functions, cost rules) is observed here.
      } finally {
        s.stop();
      }
    });
  }
});
