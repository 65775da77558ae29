// TestEnv over a real loopback socket: start, CRD installation, clients and managers, garbage
// collection, stop, and the FakeClock option.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { ConfigMapResource, FakeClock, InvalidOptionError, PodResource, defineResource } from 'kube-converge/meta';
import { createClient, isInvalid, isNotFound, isUnauthorized, loadKubeConfig, NetworkError } from 'kube-converge/client';
import { controllerManagedBy } from 'kube-converge/controller';
import { CrdNotServedError, TestEnv, eventually, installCrds, kubernetesVersions, loadCrds } from 'kube-converge/testing';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const Widget = defineResource<{ size?: number }, { seen?: number }>({
  group: 'test.converge.dev',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});
const Gadget = defineResource({ group: 'test.converge.dev', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: false });
const Sprocket = defineResource({ group: 'test.converge.dev', version: 'v1', kind: 'Sprocket', plural: 'sprockets', namespaced: true });

describe('TestEnv', () => {
  it('serves CRDs from a folder of YAML and JSON files as soon as start() resolves', async () => {
    await using env = await TestEnv.start({ crds: [`${fixtures}crds`] });
    const w = await env.client.create(Widget, {
      apiVersion: Widget.apiVersion,
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { size: 3 },
    });
    assert.equal(w.spec.size, 3);
    await env.client.create(Gadget, { apiVersion: Gadget.apiVersion, kind: 'Gadget', metadata: { name: 'g' }, spec: {} });
    await env.client.create(Sprocket, {
      apiVersion: Sprocket.apiVersion,
      kind: 'Sprocket',
      metadata: { name: 's', namespace: 'default' },
      spec: {},
    });
    assert.equal((await env.client.list(Widget, { namespace: 'default' })).items.length, 1);
  });

  it('accepts CRDs as objects and installs more later with installCrds', async () => {
    const [widgets, gadgets] = await loadCrds([`${fixtures}crds/widgets.yaml`]);
    await using env = await TestEnv.start({ crds: [widgets!] });
    await assert.rejects(env.client.list(Gadget), (e) => isNotFound(e));
    await env.installCrds([gadgets!]);
    assert.deepEqual((await env.client.list(Gadget)).items, []);
  });

  it('starts a fresh, empty server each time, on its own port', async () => {
    await using a = await TestEnv.start();
    await using b = await TestEnv.start();
    assert.notEqual(a.url, b.url);
    await a.client.create(ConfigMapResource, { metadata: { name: 'only-in-a', namespace: 'default' }, data: { k: 'v' } });
    await assert.rejects(b.client.get(ConfigMapResource, { namespace: 'default', name: 'only-in-a' }), (e) => isNotFound(e));
  });

  it('writes a kubeconfig file that loads to the same server as the kubeconfig object', async () => {
    await using env = await TestEnv.start();
    const fromFile = parseYaml(readFileSync(env.kubeconfigPath, 'utf8')) as unknown;
    assert.deepEqual(fromFile, env.kubeconfig);
    const config = loadKubeConfig({ path: env.kubeconfigPath });
    assert.equal(config.server, env.url);
    const client = createClient({ config: { ...config, qps: -1 } });
    try {
      await client.create(ConfigMapResource, { metadata: { name: 'via-file', namespace: 'default' } });
      assert.equal((await env.client.get(ConfigMapResource, { namespace: 'default', name: 'via-file' })).metadata.name, 'via-file');
    } finally {
      client.close();
    }
  });

  it('hands out managers bound to the server and shuts them down on stop', async () => {
    const env = await TestEnv.start({ crds: [`${fixtures}crds/widgets.yaml`] });
    const mgr = await env.newManager();
    const seen: string[] = [];
    controllerManagedBy(mgr)
      .for(Widget)
      .complete(async (req) => {
        seen.push(`${req.namespace}/${req.name}`);
      });
    const running = mgr.start();
    await env.client.create(Widget, {
      apiVersion: Widget.apiVersion,
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default' },
      spec: {},
    });
    await eventually(() => assert.deepEqual(seen, ['default/w1']));
    await env.stop();
    await running;
    assert.equal(existsSync(env.kubeconfigPath), false, 'the kubeconfig file is removed');
    await assert.rejects(env.newManager(), InvalidOptionError);
  });

  it('serves HTTPS: restConfig() and the kubeconfig carry the CA and the admin token, and a client without them is refused', async () => {
    await using env = await TestEnv.start();
    assert.match(env.url, /^https:\/\//);
    const config = env.restConfig();
    assert.equal(String(config.tls?.ca), env.server.caCertificate);
    assert.deepEqual(await config.auth?.credentials(), { headers: { authorization: `Bearer ${env.server.token}` } });
    const cluster = env.kubeconfig.clusters[0]!.cluster;
    assert.equal(Buffer.from(cluster['certificate-authority-data']!, 'base64').toString(), env.server.caCertificate);
    const { auth: _auth, ...anonymousConfig } = config;
    const anonymous = createClient({ config: anonymousConfig, maxRetries: 0 });
    try {
      await assert.rejects(anonymous.list(ConfigMapResource), (e) => isUnauthorized(e));
    } finally {
      anonymous.close();
    }
  });

  it('serves plain HTTP when insecureHttp is set, with the token still required', async () => {
    await using env = await TestEnv.start({ insecureHttp: true });
    assert.match(env.url, /^http:\/\//);
    assert.equal(env.restConfig().tls, undefined);
    await env.client.create(ConfigMapResource, { metadata: { name: 'plain', namespace: 'default' } });
    assert.equal((await fetch(`${env.url}/api/v1/namespaces/default/configmaps/plain`)).status, 401);
  });

  it('stops idempotently, after which the server refuses connections', async () => {
    const env = await TestEnv.start();
    const client = createClient({ config: env.restConfig(), maxRetries: 0 });
    await Promise.all([env.stop(), env.stop()]);
    await env[Symbol.asyncDispose]();
    await assert.rejects(client.list(ConfigMapResource), NetworkError);
    client.close();
  });

  it('behaves as the Kubernetes version asked for: the server sets Pod generation from 1.33 on', async () => {
    for (const kubernetesVersion of kubernetesVersions({ oldest: '1.32', newest: '1.33' })) {
      await using env = await TestEnv.start({ kubernetesVersion });
      const pod = await env.client.create(PodResource, {
        metadata: { name: 'p', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      });
      assert.equal(pod.metadata.generation, kubernetesVersion === '1.33' ? 1 : undefined, kubernetesVersion);
    }
    await assert.rejects(TestEnv.start({ kubernetesVersion: '1.30' }), /not supported: choose 1\.31 to 1\.36/);
  });

  it('collects garbage only when asked to, as envtest does not', async () => {
    for (const garbageCollection of [false, true]) {
      await using env = await TestEnv.start({ garbageCollection });
      const owner = await env.client.create(ConfigMapResource, { metadata: { name: 'owner', namespace: 'default' } });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid!, controller: true };
      await env.client.create(ConfigMapResource, { metadata: { name: 'child', namespace: 'default', ownerReferences: [ref] } });
      await env.client.delete(ConfigMapResource, { namespace: 'default', name: 'owner' });
      const child = { namespace: 'default', name: 'child' };
      if (garbageCollection) await eventually(() => assert.rejects(env.client.get(ConfigMapResource, child), (e) => isNotFound(e)));
      else {
        await new Promise((r) => setTimeout(r, 50)); // long past the collector's reaction time
        assert.equal((await env.client.get(ConfigMapResource, child)).metadata.name, 'child');
      }
    }
  });

  it('refuses a file with a document that is not a CRD, naming the file', async () => {
    await assert.rejects(TestEnv.start({ crds: [`${fixtures}not-a-crd.yaml`] }), (e) => {
      assert.ok(e instanceof InvalidOptionError);
      assert.match(e.message, /not-a-crd\.yaml: expected an apiextensions\.k8s\.io\/v1 CustomResourceDefinition, got v1\/ConfigMap/);
      return true;
    });
    await assert.rejects(TestEnv.start({ crds: [`${fixtures}missing.yaml`] }), /cannot read .*missing\.yaml/);
  });

  it("refuses an invalid CRD with the server's 422 Invalid, as a client installing it would see", async () => {
    const [widgets] = await loadCrds([`${fixtures}crds/widgets.yaml`]);
    const wrongName = { ...widgets!, metadata: { name: 'not-plural-dot-group' } };
    await assert.rejects(TestEnv.start({ crds: [wrongName] }), (e) => {
      assert.ok(isInvalid(e), String(e));
      assert.match((e as Error).message, /must be spec\.names\.plural\+"\."\+spec\.group/);
      return true;
    });
  });

  it('fails with CrdNotServedError naming the CRD when it is never Established', async () => {
    const [widgets] = await loadCrds([`${fixtures}crds/widgets.yaml`]);
    // Same group and kind as an installed CRD: the server refuses its names, so it never becomes Established.
    const clash = {
      ...widgets!,
      metadata: { name: 'widgetclones.test.converge.dev' },
      spec: { ...widgets!.spec, names: { ...widgets!.spec.names, plural: 'widgetclones', singular: 'widgetclone' } },
    };
    await using env = await TestEnv.start({ crdTimeoutMs: 100 });
    // widgets is installed with the default timeout: it must become Established however loaded the machine is.
    await installCrds({ client: env.client, crds: [widgets!] });
    await assert.rejects(env.installCrds([clash]), (e) => {
      assert.ok(e instanceof CrdNotServedError);
      assert.equal(e.code, 'CONVERGE_CRD_NOT_SERVED');
      assert.equal(e.crd, 'widgetclones.test.converge.dev');
      assert.match(e.message, /not served within 100 ms: still missing Established condition/);
      return true;
    });
  });
});

describe('TestEnv with a FakeClock', () => {
  it('drives the managers it makes with that clock: a requeueAfter of one hour fires when the clock is advanced', async () => {
    const clock = new FakeClock();
    await using env = await TestEnv.start({ clock });
    const mgr = await env.newManager();
    let reconciles = 0;
    controllerManagedBy(mgr)
      .for(ConfigMapResource)
      .complete(async (req) => {
        if (req.name === 'tick') reconciles++;
        return { requeueAfter: 3_600_000 };
      });
    const running = mgr.start();
    await env.client.create(ConfigMapResource, { metadata: { name: 'tick', namespace: 'default' } });
    await eventually(() => reconciles === 1);
    await clock.advance(3_599_000);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(reconciles, 1, 'not before the hour is up');
    await clock.advance(1_000);
    await eventually(() => reconciles === 2);
    await mgr.shutdown();
    await running;
  });
});
