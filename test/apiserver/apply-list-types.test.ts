// Imports the private builtin-schemas/ and patch/ faces: the list types are read from the schema data itself.
// Built-in kinds merge their lists as their schemas say (the list types, map keys and patch
// strategies Kubernetes publishes), in server-side apply and in strategic merge patch: volumes by
// name, tolerations and node selectors as one value, topology spread constraints by key and
// condition, webhooks by name (a kind no hand-written table covered), a policy's match conditions
// by name (a type taken from the version 1.27 served it at). Ports show the two disagree: a patch
// merges them by number, an apply keys them by number and protocol. And every served built-in kind's
// strategy is the one its schema data gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { builtinSchemas, refOf, type SchemaObject } from '../../src/apiserver/builtin-schemas/index.js';
import { strategyFor, supportsStrategicMerge, type FieldStrategy } from '../../src/apiserver/patch/index.js';
import { handleJson } from './helpers.js';
import { specCrd } from './fixtures/spec-crd.js';

const APPLY = 'application/apply-patch+yaml';
const SMP = 'application/strategic-merge-patch+json';

async function apply(s: ApiServer, url: string, manager: string, body: unknown, force = false): Promise<{ status: number; body: any }> {
  return handleJson(s, 'PATCH', `${url}?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify(body), APPLY);
}

async function applied(s: ApiServer, url: string, manager: string, body: unknown): Promise<any> {
  const r = await apply(s, url, manager, body);
  assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body));
  return r.body;
}

const fieldsOf = (obj: any, manager: string): any =>
  obj.metadata.managedFields.find((m: { manager: string }) => m.manager === manager).fieldsV1;

const DEPLOYMENT = '/apis/apps/v1/namespaces/default/deployments/web';
const deployment = (podSpec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: podSpec },
  },
});

describe('server-side apply keys built-in lists as their schemas say', () => {
  it('merges two managers’ volumes by name, keeps containers by name, and treats tolerations as one value', async () => {
    const s = createApiServer();
    try {
      await applied(
        s,
        DEPLOYMENT,
        'base',
        deployment({
          containers: [{ name: 'app', image: 'nginx' }],
          volumes: [{ name: 'config', configMap: { name: 'web-config' } }],
          tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
        }),
      );
      const merged = await applied(
        s,
        DEPLOYMENT,
        'extra',
        deployment({ containers: [{ name: 'sidecar', image: 'busybox' }], volumes: [{ name: 'cache', emptyDir: {} }] }),
      );
      const pod = merged.spec.template.spec;
      assert.deepEqual(
        pod.containers.map((c: { name: string }) => c.name),
        ['app', 'sidecar'],
      );
      assert.deepEqual(
        pod.volumes.map((v: { name: string }) => v.name),
        ['config', 'cache'],
      );
      const base = fieldsOf(merged, 'base')['f:spec']['f:template']['f:spec'];
      assert.ok(base['f:volumes']['k:{"name":"config"}']['f:configMap'], JSON.stringify(base['f:volumes']));
      assert.deepEqual(base['f:tolerations'], {}, 'an atomic list is one field');

      // Another manager's tolerations replace the list, so they conflict with the owner's unless forced.
      const tolerations = [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }];
      const conflict = await apply(
        s,
        DEPLOYMENT,
        'extra',
        deployment({ containers: [{ name: 'sidecar', image: 'busybox' }], tolerations }),
      );
      assert.equal(conflict.status, 409);
      assert.deepEqual(
        conflict.body.details.causes.map((c: { field: string }) => c.field),
        ['.spec.template.spec.tolerations'],
      );
      const forced = await apply(
        s,
        DEPLOYMENT,
        'extra',
        deployment({ containers: [{ name: 'sidecar', image: 'busybox' }], tolerations }),
        true,
      );
      assert.equal(forced.status, 200);
      assert.deepEqual(forced.body.spec.template.spec.tolerations, tolerations);
    } finally {
      s.stop();
    }
  });

  it('treats a node selector and a label selector as one value each (map type atomic)', async () => {
    const s = createApiServer();
    try {
      const created = await applied(
        s,
        DEPLOYMENT,
        'base',
        deployment({ containers: [{ name: 'app', image: 'nginx' }], nodeSelector: { disk: 'ssd' } }),
      );
      const base = fieldsOf(created, 'base')['f:spec'];
      assert.deepEqual(base['f:selector'], {});
      assert.deepEqual(base['f:template']['f:spec']['f:nodeSelector'], {});
      const conflict = await apply(s, DEPLOYMENT, 'extra', deployment({ containers: [{ name: 'app' }], nodeSelector: { zone: 'a' } }));
      assert.equal(conflict.status, 409);
      assert.deepEqual(
        conflict.body.details.causes.map((c: { field: string }) => c.field),
        ['.spec.template.spec.nodeSelector'],
      );
    } finally {
      s.stop();
    }
  });

  it('keys a Pod’s topology spread constraints by topology key and whenUnsatisfiable', async () => {
    const s = createApiServer();
    const constraint = (whenUnsatisfiable: string, maxSkew: number) => ({
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable,
      maxSkew,
      labelSelector: { matchLabels: { app: 'web' } },
    });
    try {
      await applied(
        s,
        DEPLOYMENT,
        'strict',
        deployment({ containers: [{ name: 'app', image: 'nginx' }], topologySpreadConstraints: [constraint('DoNotSchedule', 1)] }),
      );
      const merged = await applied(
        s,
        DEPLOYMENT,
        'lenient',
        deployment({ containers: [{ name: 'app' }], topologySpreadConstraints: [constraint('ScheduleAnyway', 3)] }),
      );
      assert.deepEqual(
        merged.spec.template.spec.topologySpreadConstraints.map(
          (c: { whenUnsatisfiable: string; maxSkew: number }) => `${c.whenUnsatisfiable}/${c.maxSkew}`,
        ),
        ['DoNotSchedule/1', 'ScheduleAnyway/3'],
      );
      const key = 'k:{"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway"}';
      assert.ok(fieldsOf(merged, 'lenient')['f:spec']['f:template']['f:spec']['f:topologySpreadConstraints'][key]);
    } finally {
      s.stop();
    }
  });
});

describe('kinds the old hand-written table did not cover merge by their schema’s keys', () => {
  const URL = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/hooks';
  const webhook = (name: string) => ({
    name,
    clientConfig: { url: 'https://127.0.0.1:9/validate' },
    rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  });
  const configuration = (...names: string[]) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'hooks' },
    webhooks: names.map(webhook),
  });
  const names = (obj: any): string[] => obj.webhooks.map((w: { name: string }) => w.name);

  it('merges two managers’ webhooks by name with server-side apply', async () => {
    const s = createApiServer();
    try {
      await applied(s, URL, 'team-a', configuration('a.example.com'));
      const merged = await applied(s, URL, 'team-b', configuration('b.example.com'));
      assert.deepEqual(names(merged), ['a.example.com', 'b.example.com']);
      assert.ok(fieldsOf(merged, 'team-b')['f:webhooks']['k:{"name":"b.example.com"}']);
    } finally {
      s.stop();
    }
  });

  it('merges a strategic merge patch’s webhooks by name', async () => {
    const s = createApiServer();
    try {
      assert.equal(
        (
          await handleJson(
            s,
            'POST',
            '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
            configuration('a.example.com'),
          )
        ).status,
        201,
      );
      const patched = await handleJson(
        s,
        'PATCH',
        URL,
        { webhooks: [{ name: 'a.example.com', timeoutSeconds: 3 }, webhook('b.example.com')] },
        SMP,
      );
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(names(patched.body), ['a.example.com', 'b.example.com']);
      assert.equal(patched.body.webhooks[0].timeoutSeconds, 3);
      assert.equal(patched.body.webhooks[0].clientConfig.url, 'https://127.0.0.1:9/validate');
    } finally {
      s.stop();
    }
  });

  it('merges a ValidatingAdmissionPolicy’s match conditions by name, a type 1.27 served only as v1alpha1', async () => {
    const s = createApiServer();
    const url = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/policy';
    const policy = (spec: Record<string, unknown>, condition: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'policy' },
      spec: { ...spec, matchConditions: [{ name: condition, expression: 'true' }] },
    });
    const rules = {
      matchConstraints: {
        resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }],
      },
      validations: [{ expression: 'true' }],
    };
    try {
      await applied(s, url, 'one', policy(rules, 'first'));
      const merged = await applied(s, url, 'two', policy({}, 'second'));
      assert.deepEqual(
        merged.spec.matchConditions.map((c: { name: string }) => c.name),
        ['first', 'second'],
      );
    } finally {
      s.stop();
    }
  });
});

describe('strategic merge patch and server-side apply key ports differently, as Kubernetes does', () => {
  it('merges a patched port into the one with its number, whatever its protocol', async () => {
    const s = createApiServer();
    try {
      await applied(s, DEPLOYMENT, 'base', deployment({ containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] }));
      const patch = {
        spec: { template: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, protocol: 'UDP', name: 'dns' }] }] } } },
      };
      const patched = await handleJson(s, 'PATCH', DEPLOYMENT, patch, SMP);
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'UDP', name: 'dns' }]);
    } finally {
      s.stop();
    }
  });
});

describe('custom resources read the same markers from their CRD schema', () => {
  it('keys a list by its map keys, an omitted key by its default, and treats an atomic map as one value', async () => {
    const s = createApiServer();
    const url = '/apis/example.com/v1/namespaces/default/things/t';
    const thing = (spec: Record<string, unknown>) => ({
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't', namespace: 'default' },
      spec,
    });
    try {
      const crd = specCrd('Thing', 'things', {
        properties: {
          selector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port', 'protocol'],
            items: {
              type: 'object',
              required: ['port'],
              properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
            },
          },
        },
      });
      assert.equal((await handleJson(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
      await applied(s, url, 'tcp', thing({ selector: { app: 'a' }, ports: [{ port: 53 }] }));
      const merged = await applied(s, url, 'udp', thing({ ports: [{ port: 53, protocol: 'UDP' }] }));
      assert.deepEqual(
        merged.spec.ports.map((p: { port: number; protocol: string }) => `${p.port}/${p.protocol}`),
        ['53/TCP', '53/UDP'],
      );
      assert.ok(fieldsOf(merged, 'tcp')['f:spec']['f:ports']['k:{"port":53,"protocol":"TCP"}']);
      assert.deepEqual(fieldsOf(merged, 'tcp')['f:spec']['f:selector'], {});
      const conflict = await apply(s, url, 'udp', thing({ selector: { tier: 'web' } }));
      assert.equal(conflict.status, 409);
      assert.deepEqual(
        conflict.body.details.causes.map((c: { field: string }) => c.field),
        ['.spec.selector'],
      );
    } finally {
      s.stop();
    }
  });
});

/** The served built-in kinds that take PATCH, from discovery. */
async function servedKinds(s: ApiServer): Promise<{ group: string; version: string; kind: string }[]> {
  const groupVersions = [
    'v1',
    ...(await handleJson(s, 'GET', '/apis')).body.groups.flatMap((g: any) => g.versions.map((v: any) => v.groupVersion)),
  ];
  const kinds = [];
  for (const gv of groupVersions) {
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    const list = (await handleJson(s, 'GET', gv === 'v1' ? '/api/v1' : `/apis/${gv}`)).body;
    for (const r of list.resources) if (!r.name.includes('/') && r.verbs.includes('patch')) kinds.push({ group, version, kind: r.kind });
  }
  return kinds;
}

/** What a list field's extensions say, by the rules the strategy follows, for comparison with it. */
function expectedList(s: SchemaObject): Pick<FieldStrategy, 'mergeKey' | 'mergePrimitives' | 'listType'> {
  const merge = String(s['x-kubernetes-patch-strategy'] ?? '')
    .split(',')
    .includes('merge');
  const key = s['x-kubernetes-patch-merge-key'] as string | undefined;
  const type = s['x-kubernetes-list-type'];
  const keys = type === 'map' ? (s['x-kubernetes-list-map-keys'] as string[]) : type === undefined && merge && key ? [key] : undefined;
  const item = builtinSchemas().resolve(s['items'] as SchemaObject)?.['properties'] as Record<string, SchemaObject> | undefined;
  const defaults = Object.fromEntries((keys ?? []).flatMap((k) => (item?.[k]?.['default'] !== undefined ? [[k, item[k]['default']]] : [])));
  return {
    ...(merge && key ? { mergeKey: key } : merge ? { mergePrimitives: true } : {}),
    ...(keys
      ? { listType: { kind: 'map', keys, ...(Object.keys(defaults).length > 0 ? { defaults } : {}) } }
      : type === 'set' || (type === undefined && merge)
        ? { listType: { kind: 'set' } }
        : {}),
  };
}

describe('every served built-in kind’s merge strategy', () => {
  it('comes from its schema data, field by field, with no table of its own', async () => {
    const s = createApiServer();
    try {
      const schemas = builtinSchemas();
      const kinds = await servedKinds(s);
      assert.ok(kinds.length > 30, `${kinds.length} kinds`);
      let lists = 0;
      for (const gvk of kinds) {
        const component = schemas.componentOf(gvk);
        assert.ok(component, `${gvk.group}/${gvk.version} ${gvk.kind} has schema data`);
        assert.equal(supportsStrategicMerge(gvk), true);
        const seen = new Set<string>();
        const walk = (schema: SchemaObject, strategy: FieldStrategy, path: string): void => {
          const ref = refOf(schema);
          if (ref !== undefined && seen.has(ref)) return;
          if (ref !== undefined) seen.add(ref);
          const s = schemas.resolve(schema)!;
          assert.equal(
            strategy.atomic === true,
            s['x-kubernetes-map-type'] === 'atomic' || schema['x-kubernetes-map-type'] === 'atomic',
            path,
          );
          if (s['type'] === 'array') {
            lists++;
            const { mergeKey, mergePrimitives, listType } = strategy;
            assert.deepEqual(JSON.parse(JSON.stringify({ mergeKey, mergePrimitives, listType })), expectedList(s), path);
            walk(s['items'] as SchemaObject, strategy.items!, `${path}[]`);
          }
          const properties = (s['properties'] ?? {}) as Record<string, SchemaObject>;
          assert.deepEqual(Object.keys(strategy.fields ?? {}).sort(), Object.keys(properties).sort(), path);
          for (const [field, p] of Object.entries(properties)) walk(p, strategy.fields![field]!, `${path}.${field}`);
        };
        walk({ $ref: `#/components/schemas/${component}` }, strategyFor(gvk)!, `${gvk.kind}`);
      }
      assert.ok(lists > 100, `${lists} lists compared`);
      assert.equal(strategyFor({ group: 'platform.converge.dev', version: 'v1alpha1', kind: 'WebApp' }), undefined);
    } finally {
      s.stop();
    }
  });
});
