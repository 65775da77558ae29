// The WebApp operator's deployment manifests, tested on the local API server:
// 1. `kubectl apply -f manifests/` is accepted (and a second apply changes nothing);
// 2. the RBAC in manifests/20-rbac.yaml is exactly what the operator needs. The operator is run as the
//    container runs it (`createOperator` from operator-main.ts, leader election on) behind a recording
//    proxy, through a scenario touching every code path that talks to the API server (create, update,
//    ConfigMap change, child deleted, WebApp deleted through its finalizer, stop with lease release).
//    Every request it made — plus the `update webapps/finalizers` that admission demands of writes
//    setting a blocking owner reference — must be allowed by the rules bound to its ServiceAccount,
//    and every granted verb must have been used, or be listed in UNEXERCISED with the reason it is
//    still needed.
//
// The local API server does not serve the RBAC API, so the test first installs local-rbac-crds.yaml:
// CRDs with the same group, kinds and fields, so kubectl maps the RBAC documents and the server checks
// their structure. It does not enforce RBAC: the check of the rules is this test's own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { ConfigMapResource, DeploymentResource, ServiceResource, noopLogger } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { WebApp } from '../types.js';
import { DEFAULT_NAMESPACE, createOperator } from './operator-main.js';
import { startRecordingProxy, type ApiCall } from './request-recorder.js';

const run = promisify(execFile);
const KUBECTL = '/usr/bin/kubectl';
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
const MANIFESTS = here('./manifests/');
const SERVICE_ACCOUNT = { namespace: DEFAULT_NAMESPACE, name: 'webapp-operator' };
const NS = 'default';

/**
 * Granted verbs the scenario cannot provoke without fault injection, with why the operator needs
 * them. Keys are `verb group/resource`.
 */
const UNEXERCISED: Readonly<Record<string, string>> = {
  'get apps/deployments':
    'createOrPatch re-reads a child from the server when its create meets AlreadyExists because the cache lagged (manager.e2e covers that path)',
  'get /services': 'the same live re-read for the Service',
};

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A rule in force for the ServiceAccount: cluster-wide (`namespace: ''`) or in one namespace. */
interface Grant {
  namespace: string;
  rule: PolicyRule;
  from: string;
}

interface RbacDoc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

/** The rules bound to `sa`, resolved through its (Cluster)RoleBindings as the authorizer does. */
function grantsFor(docs: RbacDoc[], sa: { namespace: string; name: string }): Grant[] {
  const grants: Grant[] = [];
  const bindsSa = (d: RbacDoc) =>
    d.subjects?.some((s) => s.kind === 'ServiceAccount' && s.name === sa.name && s.namespace === sa.namespace);
  const role = (kind: string, name: string, namespace?: string) =>
    docs.find((d) => d.kind === kind && d.metadata.name === name && (kind === 'ClusterRole' || d.metadata.namespace === namespace));
  for (const b of docs.filter(bindsSa)) {
    const scope = b.kind === 'ClusterRoleBinding' ? '' : (b.metadata.namespace ?? '');
    const r = role(b.roleRef!.kind, b.roleRef!.name, scope);
    assert.ok(r, `${b.kind} ${b.metadata.name} refers to a missing ${b.roleRef!.kind} ${b.roleRef!.name}`);
    for (const rule of r.rules ?? []) grants.push({ namespace: scope, rule, from: `${r.kind} ${r.metadata.name}` });
  }
  return grants;
}

const matches = (list: readonly string[] | undefined, value: string): boolean =>
  list !== undefined && (list.includes('*') || list.includes(value));
const resourceOf = (c: Pick<ApiCall, 'resource' | 'subresource'>): string =>
  c.subresource ? `${c.resource}/${c.subresource}` : c.resource;

function allows(g: Grant, c: ApiCall): boolean {
  if (g.namespace !== '' && g.namespace !== c.namespace) return false;
  if (g.rule.resourceNames !== undefined) return false; // never granted here; a name-limited rule would not cover lists and watches
  return matches(g.rule.apiGroups, c.group) && matches(g.rule.resources, resourceOf(c)) && matches(g.rule.verbs, c.verb);
}

/** Kinds the operator's children may name as owners, for the admission check below. */
const OWNER_KINDS = new Map([WebApp].map((r) => [`${r.apiVersion}/${r.kind}`, r]));

/**
 * Writing an owner reference with `blockOwnerDeletion: true` makes admission
 * (OwnerReferencesPermissionEnforcement, on in many clusters) demand `update` on the owner's
 * `finalizers` subresource: a permission the call implies without a request of its own.
 */
function impliedByOwnerReferences(c: ApiCall): ApiCall[] {
  return c.blockedOwners.map((o) => {
    const owner = OWNER_KINDS.get(`${o.apiVersion}/${o.kind}`);
    assert.ok(owner, `${c.verb} ${resourceOf(c)} names an unexpected owner kind ${o.apiVersion}/${o.kind}`);
    return {
      verb: 'update',
      group: owner.group,
      resource: owner.plural,
      subresource: 'finalizers',
      namespace: c.namespace,
      code: c.code,
      blockedOwners: [],
    };
  });
}

async function kubectl(env: TestEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run(KUBECTL, ['--kubeconfig', env.kubeconfigPath, ...args], { timeout: 15_000 });
  return stdout;
}

describe('WebApp operator deployment', () => {
  it('applies with kubectl, and its RBAC grants exactly the calls the operator makes', async () => {
    const env = await TestEnv.start({ crds: [here('./local-rbac-crds.yaml')] });
    try {
      const applied = await kubectl(env, 'apply', '-f', MANIFESTS);
      for (const object of [
        'namespace/webapp-system',
        'customresourcedefinition.apiextensions.k8s.io/webapps.platform.converge.dev',
        'serviceaccount/webapp-operator',
        'clusterrole.rbac.authorization.k8s.io/webapp-operator',
        'clusterrolebinding.rbac.authorization.k8s.io/webapp-operator',
        'role.rbac.authorization.k8s.io/webapp-operator-leader-election',
        'rolebinding.rbac.authorization.k8s.io/webapp-operator-leader-election',
        'deployment.apps/webapp-operator',
      ]) {
        assert.match(applied, new RegExp(`^${object.replace(/\./g, '\\.')} created$`, 'm'));
      }
      const again = await kubectl(env, 'apply', '-f', MANIFESTS);
      assert.equal(
        again
          .trim()
          .split('\n')
          .filter((l) => !l.endsWith(' unchanged'))
          .join('\n'),
        '',
        'a second apply changes nothing',
      );
      const deployment = await env.client.get(DeploymentResource, { namespace: DEFAULT_NAMESPACE, name: 'webapp-operator' });
      const container = deployment.spec?.template.spec?.containers[0];
      assert.deepEqual(container?.args, ['--leader-elect=true', '--metrics-bind-address=:8080', '--health-probe-bind-address=:8081']);
      assert.equal(deployment.spec?.template.spec?.serviceAccountName, SERVICE_ACCOUNT.name);
      assert.deepEqual([container?.livenessProbe?.httpGet?.path, container?.readinessProbe?.httpGet?.path], ['/healthz', '/readyz']);
      assert.deepEqual(
        container?.ports?.map((p) => [p.name, p.containerPort]),
        [
          ['metrics', 8080],
          ['health', 8081],
        ],
      );
      await eventually(() => env.client.list(WebApp, { namespace: NS }), { message: 'the WebApp CRD from the manifests is served' });

      // The operator as the container runs it, every request through the recorder.
      const proxy = await startRecordingProxy(env.url, env.server.caCertificate!);
      const mgr = await createOperator({
        config: { ...env.restConfig(), server: proxy.url },
        leaderElect: true,
        leaderElectionNamespace: DEFAULT_NAMESPACE,
        metricsBindAddress: '127.0.0.1:0',
        healthProbeBindAddress: '127.0.0.1:0',
        logger: noopLogger,
      });
      const stopped = mgr.start();
      try {
        await mgr.elected();
        const { healthProbe, metrics } = await mgr.listening();
        await eventually(async () => (await fetch(`${healthProbe}/readyz`)).status === 200);
        assert.equal((await fetch(`${healthProbe}/healthz`)).status, 200);
        assert.match(await (await fetch(`${metrics}/metrics`)).text(), /controller_runtime_reconcile_total\{controller="webapp"/);
        await scenario(env);
      } finally {
        await mgr.shutdown();
        await stopped;
        await proxy.close();
      }

      const docs = (await readFile(here('./manifests/20-rbac.yaml'), 'utf8').then(parseAllDocuments)).map((d) => d.toJS() as RbacDoc);
      const grants = grantsFor(docs, SERVICE_ACCOUNT);
      assert.deepEqual(proxy.unreadable, [], 'request bodies the recorder could not read');
      const calls = [...proxy.calls, ...proxy.calls.flatMap(impliedByOwnerReferences)];
      assert.ok(
        calls.some((c) => c.subresource === 'finalizers'),
        'the operator sets blocking controller references on its children',
      );

      // Every call the operator made is allowed.
      const denied = calls.filter((c) => !grants.some((g) => allows(g, c)));
      assert.deepEqual(
        denied.map((c) => `${c.verb} ${c.group}/${resourceOf(c)} in "${c.namespace}"`),
        [],
        'calls the RBAC does not allow',
      );
      assert.deepEqual(proxy.nonResource, [], 'non-resource paths need nonResourceURLs rules');

      // Every verb granted was used, or is justified.
      const used = new Set(calls.map((c) => `${c.verb} ${c.group}/${resourceOf(c)}`));
      const granted: string[] = [];
      for (const g of grants) {
        for (const group of g.rule.apiGroups ?? [])
          for (const res of g.rule.resources ?? []) for (const verb of g.rule.verbs) granted.push(`${verb} ${group}/${res}`);
      }
      const unused = granted.filter((k) => !used.has(k));
      assert.deepEqual(
        unused.sort(),
        Object.keys(UNEXERCISED).sort(),
        'granted but never used (remove the verb, or justify it in UNEXERCISED)',
      );
    } finally {
      await env.stop();
    }
  });
});

/** Walks the operator through every path that reaches the API server. */
async function scenario(env: TestEnv): Promise<void> {
  const admin = env.client;
  const key = { namespace: NS, name: 'shop' };
  await admin.create(ConfigMapResource, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'shop-config', namespace: NS },
    data: { color: 'blue' },
  });
  await admin.create(WebApp, {
    apiVersion: WebApp.apiVersion,
    kind: WebApp.kind,
    metadata: key,
    spec: { image: 'nginx:1.27', replicas: 2, configRef: 'shop-config' },
  });
  const first = await eventually(() => admin.get(DeploymentResource, key));
  await eventually(() => admin.get(ServiceResource, key));
  await eventually(async () => (await admin.get(WebApp, key)).status?.observedGeneration === 1);

  await admin.patch(WebApp, key, { spec: { image: 'nginx:1.28' } }, 'merge');
  await eventually(async () => (await admin.get(DeploymentResource, key)).spec?.template.spec?.containers[0]?.image === 'nginx:1.28');

  // Two ConfigMap changes roll the pods twice (the second repeats an event: a series).
  let hash = first.spec?.template.metadata?.annotations;
  for (const color of ['green', 'red']) {
    await admin.patch(ConfigMapResource, { namespace: NS, name: 'shop-config' }, { data: { color } }, 'merge');
    hash = await eventually(async () => {
      const a = (await admin.get(DeploymentResource, key)).spec?.template.metadata?.annotations;
      return JSON.stringify(a) !== JSON.stringify(hash) && a;
    });
  }

  // Another actor edits the Service: the operator patches its fields back.
  const service = await admin.get(ServiceResource, key);
  await admin.patch(ServiceResource, key, { spec: { selector: { 'app.kubernetes.io/name': 'hijacked' } } }, 'merge');
  await eventually(
    async () => JSON.stringify((await admin.get(ServiceResource, key)).spec?.selector) === JSON.stringify(service.spec?.selector),
  );

  await admin.delete(ServiceResource, key);
  await eventually(async () => (await admin.get(ServiceResource, key)).metadata.uid !== service.metadata.uid);

  await admin.delete(WebApp, key);
  await eventually(async () => !(await admin.list(WebApp, { namespace: NS })).items.some((a) => a.metadata.name === 'shop'));
}
