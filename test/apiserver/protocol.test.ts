// The wire protocol: discovery, health and version, output forms (Table, metadata, protobuf), and bad input of every
// kind answered with a Status, never a 500.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, cm, serverFetch, serverRequest } from './helpers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('discovery, health and version', () => {
  it('serves legacy discovery: /api, /apis, /apis/<g>, and resource lists with subresources after their resource', async () => {
    await using api = await startApi();
    const a = (await api.call('GET', '/api')).body;
    assert.equal(a.kind, 'APIVersions');
    assert.deepEqual(a.versions, ['v1']);
    const apis = (await api.call('GET', '/apis')).body;
    assert.equal(apis.kind, 'APIGroupList');
    const apps = apis.groups.find((g: { name: string }) => g.name === 'apps');
    assert.deepEqual(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
    const g = (await api.call('GET', '/apis/apps')).body;
    assert.equal(g.kind, 'APIGroup');
    const list = (await api.call('GET', '/apis/apps/v1')).body;
    assert.equal(list.kind, 'APIResourceList');
    const names = list.resources.map((r: { name: string }) => r.name);
    const at = names.indexOf('deployments');
    assert.deepEqual(names.slice(at, at + 3), ['deployments', 'deployments/scale', 'deployments/status']);
    assert.deepEqual(
      [...names].filter((n: string) => !n.includes('/')),
      [...names].filter((n: string) => !n.includes('/')).sort(),
    );
    const scale = list.resources.find((r: { name: string }) => r.name === 'deployments/scale');
    assert.deepEqual([scale.group, scale.version, scale.kind], ['autoscaling', 'v1', 'Scale']);
    const deploy = list.resources[at];
    assert.deepEqual(deploy.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(deploy.shortNames, ['deploy']);
    assert.deepEqual(deploy.categories, ['all']);
    const core = (await api.call('GET', '/api/v1')).body;
    const ns = core.resources.find((r: { name: string }) => r.name === 'namespaces');
    assert.ok(!ns.verbs.includes('deletecollection'));
  });

  it('serves aggregated discovery v2 with the exact Content-Type client-go keys on', async () => {
    await using api = await startApi();
    const r = await api.call('GET', '/apis', undefined, { accept: AGG });
    assert.equal(r.headers.get('content-type'), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    assert.equal(r.body.kind, 'APIGroupDiscoveryList');
    assert.equal(r.body.apiVersion, 'apidiscovery.k8s.io/v2');
    const apps = r.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'apps');
    const v = apps.versions[0];
    assert.equal(v.version, 'v1');
    assert.equal(v.freshness, 'Current');
    const d = v.resources.find((x: { resource: string }) => x.resource === 'deployments');
    assert.deepEqual(d.responseKind, { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.equal(d.scope, 'Namespaced');
    assert.equal(d.singularResource, 'deployment');
    assert.deepEqual(
      d.subresources.map((s: { subresource: string }) => s.subresource),
      ['scale', 'status'],
    );
    assert.deepEqual(d.subresources[0].responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    const core = await api.call('GET', '/api', undefined, { accept: AGG });
    assert.equal(core.body.items.length, 1);
    assert.equal(core.body.items[0].metadata.name, '');
  });

  it('answers /version, /healthz, /livez and /readyz', async () => {
    await using api = await startApi();
    const v = (await api.call('GET', '/version')).body;
    assert.equal(v.major, '1');
    assert.equal(v.minor, '36');
    assert.match(v.gitVersion, /^v1\.36\./);
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await api.call('GET', p);
      assert.equal(r.status, 200);
      assert.equal(r.text, 'ok');
    }
  });

  it('serves the OpenAPI v3 index and group-version documents', async () => {
    await using api = await startApi();
    const idx = (await api.call('GET', '/openapi/v3')).body;
    const url = idx.paths['apis/apps/v1'].serverRelativeURL;
    assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=/);
    const doc = await api.call('GET', url);
    assert.equal(doc.status, 200);
    assert.ok(doc.body.paths);
    assert.equal((await api.call('GET', '/openapi/v3/apis/nope/v1')).status, 404);
  });

  it('serves the OpenAPI v2 document as protobuf, which older kubectl versions require', async () => {
    await using api = await startApi();
    const r = await serverFetch(api.srv, `/openapi/v2`, {
      headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const bytes = new Uint8Array(await r.arrayBuffer());
    assert.ok(bytes.length > 100);
    assert.ok(Buffer.from(bytes).includes('fieldValidation'));
  });
});

describe('output forms', () => {
  it('renders Tables for lists with the built-in printer columns', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a', { x: '1', y: '2' }));
    const t = (await api.call('GET', CMS, undefined, { accept: TABLE })).body;
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(
      t.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Data', 'Age'],
    );
    assert.equal(t.rows[0].cells[0], 'a');
    assert.equal(t.rows[0].cells[1], 2);
    assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
    assert.ok(t.metadata.resourceVersion);
    const bad = await api.call('GET', `${CMS}?includeObject=Bogus`, undefined, { accept: TABLE });
    assert.equal(bad.status, 400);
  });

  it('renders watch events as one-row Tables with column definitions only on the first', async () => {
    await using api = await startApi();
    await api.call('POST', CMS, cm('a'));
    const w = await api.watch(`${CMS}?watch=true`, { accept: TABLE });
    await api.call('POST', CMS, cm('b'));
    const [first, second] = await w.take(2);
    assert.equal(first!.object.kind, 'Table');
    assert.ok(Array.isArray(first!.object.columnDefinitions));
    assert.equal(second!.object.columnDefinitions, null);
    assert.equal(second!.object.rows[0].cells[0], 'b');
  });

  it('streams PartialObjectMetadata on watches when asked', async () => {
    await using api = await startApi();
    const w = await api.watch(`${CMS}?watch=true&resourceVersion=1`, {
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    });
    await api.call('POST', CMS, cm('a', { secret: 'x' }));
    const ev = await w.next();
    assert.equal(ev?.object.kind, 'PartialObjectMetadata');
    assert.equal(ev?.object.data, undefined);
  });

  it('answers JSON to clients that prefer protobuf, and 406 when nothing acceptable is offered', async () => {
    await using api = await startApi();
    const r = await api.call('GET', CMS, undefined, { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'ConfigMapList');
    const n = await api.call('GET', CMS, undefined, { accept: 'text/html' });
    assert.equal(n.status, 406);
    assert.equal(n.body.reason, 'NotAcceptable');
  });
});

describe('bad input', () => {
  it('answers malformed JSON and YAML bodies with 400 and a clear message', async () => {
    await using api = await startApi();
    const j = await api.call('POST', CMS, '{"apiVersion": "v1", ');
    assert.equal(j.status, 400);
    assert.equal(j.body.reason, 'BadRequest');
    assert.match(j.body.message, /not valid JSON/);
    const y = await api.call('POST', CMS, 'a: [unclosed', { 'content-type': 'application/yaml' });
    assert.equal(y.status, 400);
    assert.match(y.body.message, /not valid YAML/);
    const arr = await api.call('POST', CMS, '[1,2]');
    assert.equal(arr.status, 400);
    const ok = await api.call('POST', CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n', {
      'content-type': 'application/yaml',
    });
    assert.equal(ok.status, 201);
  });

  it('answers bodies over 3 MiB with 413 and keeps serving', async () => {
    await using api = await startApi();
    const big = JSON.stringify(cm('big', { k: 'x'.repeat(3 * 1024 * 1024 + 10) }));
    const r = await api.call('POST', CMS, big);
    assert.equal(r.status, 413);
    assert.equal(r.body.reason, 'RequestEntityTooLarge');
    assert.equal((await api.call('GET', CMS)).status, 200);
  });

  it('survives garbage requests: bad selectors, bad paths, bad query values', async () => {
    await using api = await startApi();
    for (const p of [
      `${CMS}/%E0%A4%A`,
      `${CMS}?labelSelector=%E0%A4%A`,
      `${CMS}?labelSelector=%28%28`,
      `${CMS}?limit=abc`,
      `${CMS}?resourceVersion=xyz`,
      '/api/v1/namespaces/default/configmaps/a/b/c/d',
      '/apis/../../etc',
      `${CMS}?fieldSelector=%3D%3D`,
    ]) {
      const r = await api.call('GET', p);
      assert.ok(r.status >= 400 && r.status < 500, `${p} → ${r.status}`);
    }
    const raw = await new Promise<number>((resolve) => {
      const req = serverRequest(api.srv, CMS, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.end('\u0000\u0001garbage');
    });
    assert.equal(raw, 400);
    assert.equal((await api.call('GET', '/healthz')).status, 200);
  });

  it('keeps connections alive between requests', async () => {
    await using api = await startApi();
    const r = await api.call('GET', '/healthz');
    assert.notEqual(r.headers.get('connection'), 'close');
  });
});

describe('bodies with wrong field types', () => {
  it('answers 400, never 500, for metadata and spec of the wrong type, in bodies and in patches', async () => {
    await using api = await startApi();
    const bodies = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 123 } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: ['x'] } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: [1] } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: 'a' },
      { apiVersion: 7, kind: 'ConfigMap', metadata: { name: 'a' } },
    ];
    for (const b of bodies) {
      const r = await api.call('POST', CMS, b);
      assert.equal(r.status, 400, JSON.stringify(b));
    }
    const d = await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: 'nope',
    });
    assert.equal(d.status, 400);
    await api.call('POST', CMS, cm('a'));
    const p = await api.call('PATCH', `${CMS}/a`, { metadata: { labels: { x: 1 } } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(p.status, 400);
  });
});

// Typed fields of built-in kinds with the wrong JSON kind are refused with 400 before any defaulting,
// as the real server's decoder refuses them, whichever verb carries them; the server never answers 500.
describe('typed fields of built-in kinds', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  };
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } };

  it('answers 400 naming the field for a create with a wrong-kind field', async () => {
    await using api = await startApi();
    const cases: [string, unknown][] = [
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: 1 } }],
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: [null] } }],
      ['/api/v1/namespaces/default/services', { ...service, spec: { ports: ['x'] } }],
      [
        '/apis/apps/v1/namespaces/default/deployments',
        { ...deployment, spec: { ...deployment.spec, template: { metadata: 'x', spec: {} } } },
      ],
      ['/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, template: true } }],
      ['/apis/apps/v1/namespaces/default/deployments', { ...deployment, spec: { ...deployment.spec, strategy: 3 } }],
      ['/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: true } }],
      [
        '/api/v1/namespaces/default/pods',
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p' },
          spec: { containers: [{ name: 'c', image: 'i' }], volumes: [[{ name: 'v' }]] },
        },
      ],
    ];
    for (const [path, body] of cases) {
      const r = await api.call('POST', path, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.reason, 'BadRequest');
      // The Go decoder's words where the kind's schema gives the field's type; a null list item (which
      // Go decodes as an empty struct) is refused by the server's own shape check.
      assert.match(
        r.body.message,
        /cannot be handled as a \w+: json: cannot unmarshal \w+ into Go struct field \w+\.spec\.\S+ of type \S+|unable to decode the object: \w+\.spec\.\S+ must be an (array|object)/,
      );
    }
  });

  it('answers 400 for updates and patches that would leave a wrong-kind field, and keeps the stored object', async () => {
    await using api = await startApi();
    const created = await api.call('POST', '/api/v1/namespaces/default/services', service);
    assert.equal(created.status, 201);
    const path = '/api/v1/namespaces/default/services/s';
    const put = await api.call('PUT', path, { ...created.body, spec: { ...created.body.spec, ports: 1.5 } });
    assert.equal(put.status, 400, put.text);
    const merge = await api.call('PATCH', path, { spec: { ports: [1] } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(merge.status, 400, merge.text);
    const strategic = await api.call(
      'PATCH',
      path,
      { spec: { ports: [null] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    assert.ok(strategic.status === 400 || strategic.status === 422, strategic.text);
    const got = await api.call('GET', path);
    assert.equal(got.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
    assert.deepEqual(got.body.spec.ports, created.body.spec.ports);
  });

  it('accepts null for a typed field, as Go decodes null into an absent value', async () => {
    await using api = await startApi();
    const r = await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', {
      ...deployment,
      spec: { ...deployment.spec, strategy: null },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.strategy.type, 'RollingUpdate');
  });
});

describe('CustomResourceDefinition bodies the server cannot follow', () => {
  const crd = (version: Record<string, unknown>) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.ex.com' },
    spec: {
      group: 'ex.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, ...version }],
    },
  });
  const schema = (properties: unknown) => ({ schema: { openAPIV3Schema: { type: 'object', properties } } });

  it('refuses a schema node that is not an object with 422 naming it, instead of failing inside', async () => {
    await using api = await startApi();
    const r = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(schema({ spec: null })));
    assert.equal(r.status, 422, r.text);
    assert.ok(
      r.body.details.causes.some((c: { field: string }) => c.field === 'spec.versions[0].schema.openAPIV3Schema.properties[spec]'),
      r.text,
    );
  });

  it('refuses printer columns without a usable jsonPath, so Table reads of the kind keep working', async () => {
    await using api = await startApi();
    const bad = await api.call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd({
        ...schema({ spec: { type: 'object' } }),
        additionalPrinterColumns: [
          { name: 'A', type: 'string', jsonPath: 'x' },
          { name: 'B', type: 'string' },
        ],
      }),
    );
    assert.equal(bad.status, 422, bad.text);
    const fields = bad.body.details.causes.map((c: { field: string }) => c.field);
    assert.deepEqual(fields, [
      'spec.versions[0].additionalPrinterColumns[0].jsonPath',
      'spec.versions[0].additionalPrinterColumns[1].jsonPath',
    ]);
    const notList = await api.call(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd({ ...schema({}), additionalPrinterColumns: 3 }),
    );
    assert.equal(notList.status, 400, notList.text);
  });
});

describe('protobuf request bodies', () => {
  const varint = (n: number): number[] => {
    const out: number[] = [];
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return out;
  };
  const field = (no: number, bytes: number[] | string): number[] => {
    const b = typeof bytes === 'string' ? [...Buffer.from(bytes)] : bytes;
    return [...varint((no << 3) | 2), ...varint(b.length), ...b];
  };
  const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
    Buffer.from([0x6b, 0x38, 0x73, 0x00, ...field(1, [...field(1, apiVersion), ...field(2, kind)]), ...field(2, raw)]);

  it('decodes the ConfigMaps and Namespaces kubectl create sends as protobuf, and refuses other kinds with 415', async () => {
    await using api = await startApi();
    const meta = [...field(1, 'pcm'), ...field(2, '')];
    const raw = [...field(1, meta), ...field(2, [...field(1, 'a'), ...field(2, 'b')]), ...field(2, [...field(1, 'c'), ...field(2, '')])];
    const headers = {
      'content-type': 'application/vnd.kubernetes.protobuf',
      accept: 'application/vnd.kubernetes.protobuf, application/json',
    };
    const r = await serverFetch(api.srv, `${CMS}`, { method: 'POST', headers, body: envelope('v1', 'ConfigMap', raw) });
    assert.equal(r.status, 201);
    const body = (await r.json()) as { metadata: { name: string; generateName?: string }; data: Record<string, string> };
    assert.equal(body.metadata.name, 'pcm');
    assert.equal(body.metadata.generateName, undefined);
    assert.deepEqual(body.data, { a: 'b', c: '' });
    const other = await serverFetch(api.srv, `/api/v1/namespaces/default/endpoints`, {
      method: 'POST',
      headers,
      body: envelope('v1', 'Endpoints', []),
    });
    assert.equal(other.status, 415);
    const garbage = await serverFetch(api.srv, `${CMS}`, {
      method: 'POST',
      headers,
      body: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0xff, 0xff]),
    });
    assert.equal(garbage.status, 400);
  });
});

describe('review kinds', () => {
  it('answers access, rules, self and token reviews without storing them, allowing everything', async () => {
    await using api = await startApi();
    const ssar = await api.call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'create', resource: 'deployments', group: 'apps' } },
    });
    assert.equal(ssar.status, 201);
    assert.equal(ssar.body.status.allowed, true);
    assert.equal(ssar.body.spec.resourceAttributes.verb, 'create');
    assert.equal((await api.call('GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status, 405);
    const whoami = await api.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    assert.equal(whoami.body.status.userInfo.username, 'converge-admin');
    const disc = (await api.call('GET', '/apis/authorization.k8s.io/v1')).body.resources;
    assert.deepEqual(disc.find((r: { name: string }) => r.name === 'selfsubjectaccessreviews').verbs, ['create']);
  });
});
