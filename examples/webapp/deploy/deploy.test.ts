// The WebApp operator's deployment manifests, tested on the local API server:
// 1. `kubectl apply -f manifests/` is accepted (and a second apply changes nothing);
// 2. the RBAC in manifests/20-rbac.yaml is exactly what the operator needs. The operator is run as the
//    container runs it (`createOperator` from operator-main.ts, leader election on) under the
//    manifests' ServiceAccount, bound only by what 20-rbac.yaml grants, through a scenario touching
//    every code path that talks to the API server (create, update, ConfigMap change, drift, child
//    deleted, WebApp deleted through its finalizer, stop with lease release, and a cache lagging
//    behind the operator's own creates). The server's RBAC authorizer enforces the rules and records
//    every request the account makes, allowed or not; `converge rbac --check` then demands that the
//    file grants exactly what was recorded. A denied request would be a missing permission there, so
//    a passing check also means the operator met no 403.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RecordedRequest } from 'kube-converge/apiserver';
import { createClient, type RestConfig } from 'kube-converge/client';
import { ConfigMapResource, DeploymentResource, ServiceResource, noopLogger, type KubeObject } from 'kube-converge/meta';
import { TestEnv, eventually, faultInjectingClient } from 'kube-converge/testing';
import { WebApp } from '../types.js';
import { DEFAULT_NAMESPACE, createOperator } from './operator-main.js';

const run = promisify(execFile);
const KUBECTL = '/usr/bin/kubectl';
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
const ROOT = here('../../../');
const MANIFESTS = here('./manifests/');
const RBAC_YAML = here('./manifests/20-rbac.yaml');
const SERVICE_ACCOUNT = { namespace: DEFAULT_NAMESPACE, name: 'webapp-operator' };
const NS = 'default';

async function kubectl(env: TestEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run(KUBECTL, ['--kubeconfig', env.kubeconfigPath, ...args], { timeout: 15_000 });
  return stdout;
}

/** `converge rbac` run from the repository's sources; resolves with its exit status and output. */
function convergeRbac(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'rbac', ...args],
      { cwd: ROOT },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') reject(err);
        else resolve({ code: err ? (err.code as number) : 0, out: stdout + stderr });
      },
    );
  });
}

describe('WebApp operator deployment', () => {
  it('applies with kubectl, and its RBAC grants exactly the calls the operator makes as its ServiceAccount', async () => {
    await using env = await TestEnv.start();
    const applied = await kubectl(env, 'apply', '-f', MANIFESTS);
    for (const object of [
      'namespace/webapp-system',
      'customresourcedefinition.apiextensions.k8s.io/webapps.platform.converge.dev',
      'serviceaccount/webapp-operator',
      'clusterrole.rbac.authorization.k8s.io/webapp-operator',
      'clusterrolebinding.rbac.authorization.k8s.io/webapp-operator',
      'role.rbac.authorization.k8s.io/webapp-operator',
      'rolebinding.rbac.authorization.k8s.io/webapp-operator',
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

    // The operator as the container runs it, as the ServiceAccount the manifests created and bound.
    const sa = await env.serviceAccount(SERVICE_ACCOUNT);
    const mgr = await createOperator({
      config: sa.restConfig(),
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
    }
    await cacheLag(env, sa.restConfig(), () => sa.recording().requests);

    const dir = await mkdtemp(join(tmpdir(), 'webapp-rbac-'));
    const recording = join(dir, 'webapp-operator.recording.json');
    await sa.writeRecording(recording);
    const { code, out } = await convergeRbac(['--recording', recording, '--name', 'webapp-operator', '--out', RBAC_YAML, '--check']);
    assert.equal(
      code,
      0,
      `${out}
(the recording is kept in ${recording}; regenerate 20-rbac.yaml from it without --check)`,
    );
    await rm(dir, { recursive: true, force: true });
  });
});

/**
 * The one path the scenario cannot reach without fault injection: a reconcile that runs before the
 * cache has seen the children it created, so its create meets AlreadyExists and `createOrPatch`
 * re-reads the child from the server (once read-your-writes gave up waiting for the cache: 10 s of
 * real time, since the operator runs on the real clock as in its pod). The operator runs again as
 * the same ServiceAccount, on a client that holds back the watch events of one WebApp's children
 * until both re-reads were recorded.
 */
async function cacheLag(env: TestEnv, config: RestConfig, recorded: () => readonly RecordedRequest[]): Promise<void> {
  const key = { namespace: NS, name: 'lagged' };
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const client = faultInjectingClient(createClient({ config }), {
    beforeWatchEvent: async (r, e) => {
      if ((r.plural === 'deployments' || r.plural === 'services') && (e.object as KubeObject).metadata?.name === key.name) await released;
    },
  });
  const mgr = await createOperator({
    config,
    client,
    leaderElect: true,
    leaderElectionNamespace: DEFAULT_NAMESPACE,
    metricsBindAddress: '0',
    healthProbeBindAddress: '0',
    logger: noopLogger,
  });
  const stopped = mgr.start();
  try {
    await mgr.elected();
    const reRead = (resource: string) => recorded().some((r) => r.verb === 'get' && r.resource === resource && r.name === key.name);
    await env.client.create(WebApp, {
      apiVersion: WebApp.apiVersion,
      kind: WebApp.kind,
      metadata: key,
      spec: { image: 'nginx:1.27', replicas: 1 },
    });
    await eventually(() => env.client.get(ServiceResource, key));
    // A new generation makes the operator reconcile again while its cache still lacks both children:
    // once read-your-writes has waited its 10 s for them, the reconcile runs on the stale cache.
    await env.client.patch(WebApp, key, { spec: { image: 'nginx:1.28' } }, 'merge');
    await eventually(() => reRead('deployments') && reRead('services'), {
      timeoutMs: 20_000,
      message: 'the children re-read from the server',
    });
    release();
    await eventually(
      async () => (await env.client.get(DeploymentResource, key)).spec?.template.spec?.containers[0]?.image === 'nginx:1.28',
    );
    await env.client.delete(WebApp, key);
    await eventually(async () => !(await env.client.list(WebApp, { namespace: NS })).items.some((a) => a.metadata.name === key.name));
  } finally {
    release();
    await mgr.shutdown();
    await stopped;
  }
}

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
