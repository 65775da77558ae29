// Built-in kind records: this test needs private files (the registry's records, strategies and the Registry that makes the protobuf decoder, the built-in schemas, meta's list of predefined descriptors), which the faces do not export.
// Every kind the server serves must come from a record with all its parts, and adding a kind is one
// record: a throwaway kind defined here is served by a server built for the test, over REST, as a
// Table and from protobuf bodies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { KubeObject } from 'kube-converge/meta';
import { builtinResources } from '../../src/meta/resource.js';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { BUILTIN_KINDS, type BuiltinKind } from '../../src/apiserver/registry/builtins.js';
import { Registry } from '../../src/apiserver/registry/registry.js';
import { builtinSchemas } from '../../src/apiserver/builtin-schemas/index.js';
import { Strategy, builtinVersion, type VersionSpec } from '../../src/apiserver/registry/strategy.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../../src/apiserver/table/index.js';
import { fieldCause, NEWEST_MINOR, type FieldCause } from '../../src/apiserver/ground/index.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

// A tiny protobuf encoder: enough for an envelope around an object with a name and a string field.
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const bytes = (no: number, raw: number[] | string): number[] => {
  const b = typeof raw === 'string' ? [...Buffer.from(raw)] : raw;
  return [...varint(no * 8 + 2), ...varint(b.length), ...b];
};
const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]), ...bytes(2, raw)]);
/** An object message whose field 1 is its ObjectMeta with `name`, as every top-level Kubernetes message has. */
const named = (name: string, ...rest: number[][]): number[] => [...bytes(1, bytes(1, name)), ...rest.flat()];

async function call(api: ApiServer, method: string, path: string, body?: string | Uint8Array, contentType = 'application/json') {
  const r = await api.handle({
    method,
    path,
    headers: { 'content-type': contentType, accept: 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: r.status, text: r.body, json: () => JSON.parse(r.body) as Record<string, any> };
}

const storeReader = { list: () => [] };
const registryOf = (kinds: readonly BuiltinKind[]): Registry => {
  const r = new Registry();
  for (const k of kinds) r.addKind(k, storeReader, NEWEST_MINOR);
  return r;
};

describe('every served built-in kind has all its parts', () => {
  const registry = registryOf(BUILTIN_KINDS);
  const api = createApiServer();

  /** Every (group, version, resource) the server's discovery lists, read over REST. */
  async function servedResources(): Promise<{ group: string; version: string; plural: string; verbs: string[]; subresources: string[] }[]> {
    const out = [];
    const groupVersions = [{ group: '', version: 'v1', path: '/api/v1' }];
    for (const g of (await call(api, 'GET', '/apis')).json().groups as { name: string; versions: { version: string }[] }[])
      for (const v of g.versions) groupVersions.push({ group: g.name, version: v.version, path: `/apis/${g.name}/${v.version}` });
    for (const gv of groupVersions) {
      const list = (await call(api, 'GET', gv.path)).json().resources as { name: string; verbs: string[] }[];
      for (const r of list.filter((x) => !x.name.includes('/')))
        out.push({
          group: gv.group,
          version: gv.version,
          plural: r.name,
          verbs: r.verbs,
          subresources: list.filter((x) => x.name.startsWith(`${r.name}/`)).map((x) => x.name.slice(r.name.length + 1)),
        });
    }
    return out;
  }

  it('serves each kind from a record in BUILTIN_KINDS, whose strategy names it, with a schema, and a printer where it can be listed', async () => {
    const served = await servedResources();
    assert.ok(served.length >= BUILTIN_KINDS.length, `discovery lists ${served.length} resources`);
    for (const r of served) {
      const id = `${r.group}/${r.plural}`;
      const record = registry.kindRecord(id);
      assert.ok(record, `${id} is served but no record in BUILTIN_KINDS declares it`);
      const strategy = registry.lookup(r.group, r.version, r.plural)?.strategy;
      assert.ok(strategy, `${id}: its record's strategy does not serve ${r.version}`);
      const descriptor = strategy.served(r.version);
      for (const part of ['kind', 'singular', 'plural'] as const) assert.notEqual(descriptor[part], '', `${id}: descriptor has no ${part}`);
      assert.ok(
        builtinSchemas().componentOf({ group: r.group, version: r.version, kind: descriptor.kind }),
        `${id}: no OpenAPI schema in builtin-schemas (explain, apply and unknown-field checks read it)`,
      );
      if (r.verbs.includes('list'))
        assert.ok(strategy.printer, `${id}: a kind kubectl can get needs a printer (defaultPrinter for Name and Created At)`);
    }
  });

  it("lists each of the kind's printer columns in its Table, for every kind that can be listed", async () => {
    for (const r of await servedResources()) {
      if (!r.verbs.includes('list')) continue;
      const strategy = registry.lookup(r.group, r.version, r.plural)!.strategy;
      const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      const path = `${base}${strategy.namespaced ? '/namespaces/default' : ''}/${r.plural}`;
      const res = await api.handle({ method: 'GET', path, headers: { accept: TABLE } });
      assert.equal(res.status, 200, `${path}: ${res.body}`);
      const table = JSON.parse(res.body) as { kind: string; columnDefinitions: unknown[] };
      assert.equal(table.kind, 'Table', path);
      assert.deepEqual(table.columnDefinitions, strategy.printer!.columns, `${path}: Table columns are not its printer's`);
    }
  });

  it("decodes a protobuf body of every kind whose record names a message, and of every subresource's body", () => {
    for (const record of BUILTIN_KINDS) {
      const strategy = record.strategy(storeReader);
      const apiVersion = strategy.apiVersion(strategy.storageVersion);
      const kinds = [...(record.protobuf ? [{ apiVersion, kind: strategy.kind }] : []), ...record.bodies];
      for (const { apiVersion: v, kind } of kinds) {
        const obj = registry.protobuf.decodeObject(envelope(v, kind, named('x')));
        assert.deepEqual([obj.apiVersion, obj.kind, obj.metadata.name], [v, kind, 'x'], `${v} ${kind}`);
      }
    }
  });

  it('has a protobuf entry for every kind kubectl sends as protobuf, each of its recorded bodies decoding', () => {
    // kubectl 1.32+ sends protobuf from its typed commands: `create` (namespace, configmap, secret,
    // service, serviceaccount, deployment, job, cronjob, role, rolebinding, clusterrole,
    // clusterrolebinding, ingress, poddisruptionbudget, priorityclass, quota, token), `run`,
    // `autoscale`, `drain` (Evictions) and `auth can-i`/`whoami` (reviews); see
    // https://github.com/kubernetes/kubectl/tree/master/pkg/cmd/create
    const kubectlSends = [
      'v1 Namespace',
      'v1 ConfigMap',
      'v1 Secret',
      'v1 Service',
      'v1 ServiceAccount',
      'v1 Pod',
      'v1 ResourceQuota',
      'apps/v1 Deployment',
      'batch/v1 Job',
      'batch/v1 CronJob',
      'rbac.authorization.k8s.io/v1 Role',
      'rbac.authorization.k8s.io/v1 RoleBinding',
      'rbac.authorization.k8s.io/v1 ClusterRole',
      'rbac.authorization.k8s.io/v1 ClusterRoleBinding',
      'networking.k8s.io/v1 Ingress',
      'policy/v1 PodDisruptionBudget',
      'policy/v1 Eviction',
      'scheduling.k8s.io/v1 PriorityClass',
      'autoscaling/v2 HorizontalPodAutoscaler',
      'authentication.k8s.io/v1 TokenRequest',
      'authentication.k8s.io/v1 SelfSubjectReview',
      'authorization.k8s.io/v1 SelfSubjectAccessReview',
      'authorization.k8s.io/v1 SelfSubjectRulesReview',
    ];
    for (const k of kubectlSends) {
      const [apiVersion, kind] = k.split(' ') as [string, string];
      assert.ok(registry.protobuf.messageOf(apiVersion, kind), `${k}: kubectl sends it as protobuf, but no record names its message`);
    }
    const fixtures = new URL('./fixtures/protobuf/', import.meta.url);
    for (const f of readdirSync(fixtures).filter((n) => n.startsWith('kubectl-') && !n.includes('delete-options'))) {
      const obj = registry.protobuf.decodeObject(readFileSync(new URL(f, fixtures)));
      assert.ok(
        kubectlSends.includes(`${obj.apiVersion} ${obj.kind}`),
        `${f} (${obj.apiVersion} ${obj.kind}) is missing from the list above`,
      );
    }
  });

  it("serves each special subresource a kind's discovery lists, with the verb it lists", async () => {
    for (const r of await servedResources()) {
      const strategy = registry.lookup(r.group, r.version, r.plural)!.strategy;
      const record = registry.kindRecord(strategy.id)!;
      const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      for (const sub of r.subresources.filter((s) => s !== 'status' && s !== 'scale')) {
        const verbs = strategy.served(r.version).subresources.find((s) => s.name === sub)!.verbs;
        const createOnly = verbs.length === 1 && verbs[0] === 'create';
        if (createOnly)
          assert.ok(
            record.bodies.some((b) => b.subresource === sub),
            `${strategy.id}/${sub}: its record names no body`,
          );
        const path = `${base}${strategy.namespaced ? '/namespaces/default' : ''}/${r.plural}/absent/${sub}`;
        const res = await call(api, createOnly ? 'POST' : 'PUT', path, JSON.stringify({ metadata: { name: 'absent' } }));
        // The object is absent, so the handler answers a NotFound Status: the route itself exists.
        assert.equal(res.status, 404, `${path}: ${res.text}`);
        assert.equal(res.json().reason, 'NotFound', `${path}: ${res.text}`);
      }
    }
  });

  it("references meta's descriptor of every kind the client layer predefines, which must agree with its strategy", () => {
    for (const d of builtinResources) {
      const record = registry.kindRecord(`${d.group}/${d.plural}`);
      assert.equal(record?.resource, d, `${d.apiVersion} ${d.kind}: no record references meta's descriptor`);
    }
    const wrong: BuiltinKind = { ...BUILTIN_KINDS[1]!, resource: builtinResources[0]! };
    assert.throws(
      () => registryOf([wrong]),
      /meta's descriptor \(v1 Namespace, namespaces, namespaced false\) does not match its strategy/,
    );
  });
});

describe('adding a built-in kind is one record', () => {
  // The kind's file: its strategy (descriptor, hooks), printer and record, all in one place.
  const { at, text, name, age } = cells;
  const widgetPrinter: TablePrinter = {
    columns: [nameColumn(), column('Color', 'string', 'The color of the widget.'), ageColumn()],
    cells: (o, now) => [name(o), text(at(o, 'spec', 'color')), age(o, now)],
  };
  class WidgetStrategy extends Strategy {
    readonly group = 'example.converge.dev';
    readonly kind = 'Widget';
    readonly plural = 'widgets';
    readonly namespaced = true;
    readonly versions: VersionSpec[] = [builtinVersion('v1')];
    override readonly shortNames = ['wd'];
    override readonly printer = widgetPrinter;
    override prepareForCreate(obj: KubeObject): void {
      if (obj.spec !== undefined) (obj.spec as { color?: string }).color ??= 'blue';
    }
    override validate(obj: KubeObject): FieldCause[] {
      const color = (obj.spec as { color?: unknown } | undefined)?.color;
      return obj.spec === undefined
        ? [fieldCause.required('spec', '')]
        : typeof color === 'string'
          ? []
          : [fieldCause.invalid('spec.color', color, 'must be a string')];
    }
  }
  const widgetKind: BuiltinKind = {
    strategy: () => new WidgetStrategy(),
    resource: null,
    protobuf: {
      message: 'Widget',
      tables: [{ Widget: { 1: 'metadata ObjectMeta', 2: 'spec WidgetSpec' }, WidgetSpec: { 1: 'color string' } }],
    },
    bodies: [],
  };
  // …and its one registration line.
  const api = createApiServer({ extraKinds: [widgetKind] });
  const path = '/apis/example.converge.dev/v1/namespaces/default/widgets';

  it('creates, gets and lists the kind over REST with its strategy applied', async () => {
    const created = await call(
      api,
      'POST',
      path,
      JSON.stringify({ apiVersion: 'example.converge.dev/v1', kind: 'Widget', metadata: { name: 'a' }, spec: {} }),
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json().spec.color, 'blue');
    const refused = await call(
      api,
      'POST',
      path,
      JSON.stringify({ apiVersion: 'example.converge.dev/v1', kind: 'Widget', metadata: { name: 'b' } }),
    );
    assert.equal(refused.status, 422, refused.text);
    assert.equal((await call(api, 'GET', `${path}/a`)).json().spec.color, 'blue');
    assert.deepEqual(
      ((await call(api, 'GET', path)).json().items as KubeObject[]).map((o) => o.metadata.name),
      ['a'],
    );
  });

  it('creates the kind from a protobuf body, decoded with the message tables its record brings', async () => {
    const body = envelope('example.converge.dev/v1', 'Widget', named('pb', bytes(2, bytes(1, 'red'))));
    const created = await call(api, 'POST', path, body, PROTOBUF);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.json().metadata.name, created.json().spec.color], ['pb', 'red']);
  });

  it('prints the kind as a Table with its printer columns', async () => {
    await call(
      api,
      'POST',
      path,
      JSON.stringify({ apiVersion: 'example.converge.dev/v1', kind: 'Widget', metadata: { name: 't' }, spec: { color: 'green' } }),
    );
    const res = await api.handle({ method: 'GET', path: `${path}/t`, headers: { accept: TABLE } });
    const table = JSON.parse(res.body) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Color', 'Age'],
    );
    assert.deepEqual(table.rows[0]!.cells.slice(0, 2), ['t', 'green']);
  });

  it('is advertised by discovery with its short names', async () => {
    const list = (await call(api, 'GET', '/apis/example.converge.dev/v1')).json().resources as { name: string; shortNames?: string[] }[];
    assert.deepEqual(list.find((r) => r.name === 'widgets')?.shortNames, ['wd']);
  });
});
