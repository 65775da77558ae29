// What the Python client's own end-to-end suite (kubernetes/e2e_test in kubernetes-client/python) relies on,
// each behaviour that needs no running pod covered by a scenario of ours: `utils.create_from_yaml` with
// multi-document files, lists and directories and its byte-exact error text when some documents already exist,
// namespaced and cluster-scoped kinds, RBAC, APIServices, the typed APIs of the workload kinds, and a watch
// bounded by resource_version and timeout_seconds. suite_behaviours.py makes the calls and prints what it saw.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiserverProcess, type ApiserverProcess } from '../apiserver-process.js';
import { INSTALL_HINT, python, runScenario, skip } from './python-client.js';

const SCRIPT = new URL('suite_behaviours.py', import.meta.url).pathname;

/** The text of `FailToCreateError` for one 409 AlreadyExists, as kube-apiserver's body makes it. */
const alreadyExists = (resource: string, name: string, group = ''): string =>
  'Error from server (Conflict): {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",' +
  `"message":"${group ? `${resource}.${group}` : resource} \\"${name}\\" already exists","reason":"AlreadyExists",` +
  `"details":{"name":"${name}",${group ? `"group":"${group}",` : ''}"kind":"${resource}"},"code":409}\n`;

describe("the Python client's own end-to-end expectations against converge apiserver", { skip }, () => {
  let server: ApiserverProcess;
  const scenario = (namespace: string, name: string): Promise<any> => runScenario(SCRIPT, server, namespace, name);
  before(async () => {
    assert.ok(python !== undefined, `CI=true and no python3 with the kubernetes client: ${INSTALL_HINT}`);
    server = await startApiserverProcess();
  });
  // `before` may have failed before the server started.
  after(async () => {
    if (server !== undefined) await server.stop();
  });

  it('creates the rest of a multi-document file when some documents exist, and reports each conflict byte for byte', async () => {
    const r = await scenario('py-yaml-conflicts', 'yaml-conflicts');
    assert.equal(r.partial, alreadyExists('services', 'web'));
    assert.equal(r.rcCreated, 'web', 'the document after the conflicting one is still created');
    assert.equal(r.repeated, alreadyExists('deployments', 'triple', 'apps').repeat(2));
    assert.equal(r.deploymentCreated, 'triple');
  });

  it('creates from kind: List and kind: ServiceList documents and from a directory, reporting a conflict inside a list', async () => {
    const r = await scenario('py-yaml-lists', 'yaml-lists');
    assert.deepEqual(r.general, ['listed', 'listed']);
    assert.deepEqual(r.services, ['a', 'b', 'c', 'from-dir', 'listed'], 'the list item after the conflicting one is created');
    assert.equal(r.conflict, alreadyExists('services', 'b'));
    assert.deepEqual(r.fromDirectory, ['from-dir', 'from-dir']);
  });

  it('creates cluster-scoped kinds, honours a namespace in the document, and serves RBAC Roles and APIServices', async () => {
    const ns = 'py-yaml-scopes';
    const r = await scenario(ns, 'yaml-scopes');
    assert.deepEqual(r.namespaces, [`${ns}-other`, `${ns}-third`]);
    assert.equal(r.placed, `${ns}-other`);
    assert.deepEqual(r.role, [
      { api_groups: [''], non_resource_ur_ls: null, resource_names: null, resources: ['pods'], verbs: ['get', 'watch', 'list'] },
    ]);
    assert.deepEqual(r.apiService, { name: `v1alpha1.${ns}.example.com`, service: { name: 'api', namespace: ns, port: null } });
    assert.equal(r.apiServiceConflict, alreadyExists('apiservices', `v1alpha1.${ns}.example.com`, 'apiregistration.k8s.io'));
    for (const local of ['v1.', 'v1.apps', 'v1.batch', 'v1.rbac.authorization.k8s.io', 'v1.apiregistration.k8s.io'])
      assert.ok(r.builtinApiServices.includes(local), local);
  });

  it('drives Services, ReplicationControllers, Jobs, Deployments, DaemonSets, ConfigMaps and Nodes through their typed APIs', async () => {
    const r = await scenario('py-typed', 'typed');
    assert.deepEqual(r.service, { name: 'frontend', hasStatus: true, ports: [80, 8080] }, 'a strategic merge patch merges ports by port');
    assert.deepEqual(r.rc, [2, 2]);
    assert.deepEqual(r.job, ['job', 'job']);
    assert.deepEqual(r.deployment, { replicas: 3, deleted: 'Success' });
    assert.deepEqual(r.daemonSet, { strategy: 'RollingUpdate', deleted: 'Success' });
    assert.deepEqual(r.configMap, { data: { 'config.json': '{}', 'frontend.cnf': '[mysqld]\nport = 3306\n' }, left: [] });
    assert.deepEqual(r.nodes, []);
  });

  it('watches from a list resourceVersion, sees only later changes, and ends at timeout_seconds', async () => {
    const r = await scenario('py-watch-window', 'watch-window');
    assert.deepEqual(r.events.slice(0, 2), [
      ['ADDED', 'b'],
      ['MODIFIED', 'b'],
    ]);
    assert.deepEqual(
      r.events
        .slice(2)
        .map((e: string[]) => e.join(' '))
        .sort(),
      ['DELETED a', 'DELETED b'],
      'the two deletes of the collection, in either order',
    );
  });
});
