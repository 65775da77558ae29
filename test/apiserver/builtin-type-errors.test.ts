// A built-in object with a field of the wrong JSON kind is refused as kube-apiserver refuses it: a
// 400 BadRequest in the words of Go's JSON decoder, naming the innermost struct, the field's path
// of JSON names and its Go type, on create, update, patch and server-side apply alike, and under
// any fieldValidation (the object cannot be decoded at all).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson } from './helpers.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (spec: Record<string, unknown> = {}, name = 'web') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    ...spec,
  },
});

const cannot = (kind: string, error: string) => `${kind} in version "v1" cannot be handled as a ${kind}: ${error}`;

async function refused(api: ApiServer, method: string, path: string, body: unknown, message: string, type?: string): Promise<void> {
  const r = await handleJson(api, method, path, body, type);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.reason, 'BadRequest');
  assert.equal(r.body.message, message);
}

describe('wrong JSON kinds in built-in objects', () => {
  it('refuses a Deployment with replicas "three" on create, naming the field as Go does', async () => {
    const api = createApiServer();
    await refused(
      api,
      'POST',
      DEPLOYMENTS,
      deployment({ replicas: 'three' }),
      cannot('Deployment', 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'),
    );
    for (const fieldValidation of ['Ignore', 'Warn', 'Strict']) {
      const r = await handleJson(api, 'POST', `${DEPLOYMENTS}?fieldValidation=${fieldValidation}`, deployment({ replicas: 'three' }));
      assert.equal(r.status, 400, `${fieldValidation}: ${r.text}`);
    }
    assert.equal((await handleJson(api, 'GET', `${DEPLOYMENTS}/web`)).status, 404, 'nothing stored');
  });

  it('words each kind of mismatch as Go’s decoder: numbers that are not integers, structs, lists, maps, list items', async () => {
    const api = createApiServer();
    const cases: [Record<string, unknown>, string][] = [
      [{ replicas: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
      [{ replicas: 2 ** 31 }, 'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32'],
      [{ paused: 'yes' }, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool'],
      [
        { strategy: 'Recreate' },
        'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.strategy of type v1.DeploymentStrategy',
      ],
      [
        { selector: { matchLabels: ['app'] } },
        'json: cannot unmarshal array into Go struct field LabelSelector.spec.selector.matchLabels of type map[string]string',
      ],
      [
        { template: { spec: { containers: { name: 'app' } } } },
        'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
      ],
      [
        { template: { spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: '80' }] }] } } },
        'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
      ],
      [
        { template: { spec: { containers: [{ name: 'app', image: 'nginx', args: [true] }] } } },
        'json: cannot unmarshal bool into Go struct field Container.spec.template.spec.containers.args of type string',
      ],
    ];
    for (const [spec, error] of cases) await refused(api, 'POST', DEPLOYMENTS, deployment(spec), cannot('Deployment', error));
    await refused(
      api,
      'POST',
      DEPLOYMENTS,
      { ...deployment(), spec: 'all of it' },
      cannot('Deployment', 'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec'),
    );
  });

  it('reports only the first wrong field, in body order, before any unknown field', async () => {
    const api = createApiServer();
    await refused(
      api,
      'POST',
      `${DEPLOYMENTS}?fieldValidation=Strict`,
      deployment({ bogus: 1, paused: 'no', replicas: 'three' }),
      cannot('Deployment', 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'),
    );
  });

  it('refuses the same on update, merge and strategic patch, and server-side apply', async () => {
    const api = createApiServer();
    const created = await handleJson(api, 'POST', DEPLOYMENTS, deployment());
    assert.equal(created.status, 201, created.text);
    const error = cannot('Deployment', 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    await refused(api, 'PUT', `${DEPLOYMENTS}/web`, { ...created.body, spec: { ...created.body.spec, replicas: 'three' } }, error);
    await refused(api, 'PATCH', `${DEPLOYMENTS}/web`, { spec: { replicas: 'three' } }, error, 'application/merge-patch+json');
    await refused(api, 'PATCH', `${DEPLOYMENTS}/web`, { spec: { replicas: 'three' } }, error, 'application/strategic-merge-patch+json');
    // Forced, so that the field's owner does not make it a conflict first.
    const apply = await handleJson(
      api,
      'PATCH',
      `${DEPLOYMENTS}/web?fieldManager=me&force=true`,
      JSON.stringify(deployment({ replicas: 'three' })),
      'application/apply-patch+yaml',
    );
    assert.equal(apply.status, 400, apply.text);
    assert.equal((await handleJson(api, 'GET', `${DEPLOYMENTS}/web`)).body.spec.replicas, 2, 'unchanged');
  });

  it('covers every built-in kind, ConfigMaps and Services included, and leaves values Go decodes specially alone', async () => {
    const api = createApiServer();
    await refused(
      api,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, immutable: 'true' },
      cannot('ConfigMap', 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool'),
    );
    await refused(
      api,
      'POST',
      '/api/v1/namespaces/default/services',
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 'http' }] } },
      cannot('Service', 'json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32'),
    );
    // IntOrString takes both, a Quantity takes a number, null is a zero value.
    const ok = await handleJson(
      api,
      'POST',
      DEPLOYMENTS,
      deployment({
        replicas: null,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: 1, memory: '1Gi' } } }] },
        },
      }),
    );
    assert.equal(ok.status, 201, ok.text);
  });
});
