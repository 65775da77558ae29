/**
 * The files of one kind in a scaffolded project: its schema-first definition, its controller and its
 * tests. `converge init` writes them for the first kind and `converge create api` for each further
 * one, so every kind of a project starts from the same pattern, with its generated CRD. Invariant:
 * the definition written here is the one starter-crd.ts builds in process to render that CRD.
 */
import type { KindNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';
import { local } from './local-import.js';
import { CRD_DIR, capitalized, starterCrdFile, type SpokePlan } from './starter-crd.js';
import { sampleFileOf } from './config-files.js';

/** The finalizer each kind's controller puts on its objects: `<group>/cleanup`. */
const finalizerOf = (k: KindNames): string => `${k.group}/cleanup`;

/** `operatorNamespace` holds the ConfigMaps of a cluster-scoped kind, which has no namespace of its own. */
export function kindFiles(k: KindNames, operatorNamespace: string): ScaffoldFile[] {
  return [
    { path: `src/api/${k.file}.ts`, content: definitionFile(k) },
    { path: `src/controllers/${k.file}.ts`, content: controllerFile(k, operatorNamespace) },
    { path: `test/${k.file}.test.ts`, content: testFile(k) },
    starterCrdFile(k),
    { path: `config/samples/${sampleFileOf(k)}`, content: sampleFile(k) },
  ];
}

function sampleFile(k: KindNames): string {
  return `# A ${k.kind} to try the operator with: kubectl apply -k config/samples${k.namespaced ? ' (in the default namespace)' : ''}.
apiVersion: ${k.group}/${k.version}
kind: ${k.kind}
metadata:
  name: ${k.file}-sample
spec:
  message: hello from ${k.file}-sample
`;
}

/**
 * src/api/<kind>.ts. With `conversion` (`converge create webhook --conversion`), the kind gets a second,
 * served version whose spec calls the message `text`, and a conversion webhook between the two.
 */
export function definitionFile(k: KindNames, conversion?: SpokePlan): string {
  const printerColumns = `printerColumns: [
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],`;
  const spokeSpec = conversion && `${k.kind}Spec${capitalized(conversion.spoke)}`;
  const spokeSchema =
    conversion === undefined
      ? ''
      : `
/**
 * The spec in ${conversion.spoke}, where the message is called text. Objects are stored in ${k.version}; the
 * conversion webhook (src/webhooks/${k.file}.ts) turns one spec into the other, so a ${k.kind} written in
 * either version reads back in both.
 */
export const ${spokeSpec} = Type.Object({
  text: Type.String({ minLength: 1, description: 'What the ${k.kind}\\'s ConfigMap holds under "message".' }),
});
export type ${spokeSpec} = Static<typeof ${spokeSpec}>;
`;
  const spokeVersion =
    conversion === undefined
      ? ''
      : `
    ${conversion.spoke}: {
      served: true,
      storage: false,
      spec: ${spokeSpec},
      status: ${k.kind}Status,
      subresources: { status: true },
      ${printerColumns}
    },`;
  const conversionBlock =
    conversion === undefined
      ? ''
      : `
  // The API server sends every conversion to the operator's webhook Service (config/webhook/); cert-manager
  // puts the CA of its serving certificate (config/certmanager/) into the CRD.
  conversion: {
    strategy: 'Webhook',
    service: { namespace: '${conversion.service.namespace}', name: '${conversion.service.name}', path: '/convert' },
    conversionReviewVersions: ['v1'],
  },
  crdAnnotations: { 'cert-manager.io/inject-ca-from': '${conversion.caFrom}' },`;
  return `/**
 * The ${k.kind} API (${k.group}/${k.version}), schema first: the TypeBox schemas below are the one
 * source of the TypeScript types, the resource descriptor the controller uses and the CRD in
 * config/crd/bases/ (\`npm run generate\` writes it, \`npm test\` fails while it is stale).
 */
import { Type, type Static } from 'typebox';
import { Conditions, defineCustomResource } from 'kube-converge/schema';

export const ${k.kind}Spec = Type.Object({
  message: Type.String({ minLength: 1, description: 'What the ${k.kind}\\'s ConfigMap holds under "message".' }),
});
export type ${k.kind}Spec = Static<typeof ${k.kind}Spec>;

export const ${k.kind}Status = Type.Object({
  observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation this status describes.' })),
  conditions: Type.Optional(Conditions()),
});
export type ${k.kind}Status = Static<typeof ${k.kind}Status>;
${spokeSchema}
export const ${k.kind} = defineCustomResource({
  group: '${k.group}',
  kind: '${k.kind}',
  scope: '${k.namespaced ? 'Namespaced' : 'Cluster'}',
  versions: {
    ${k.version}: {
      served: true,
      storage: true,
      spec: ${k.kind}Spec,
      status: ${k.kind}Status,
      subresources: { status: true },
      ${printerColumns}
    },${spokeVersion}
  },${conversionBlock}
});
`;
}

function controllerFile(k: KindNames, operatorNamespace: string): string {
  const v = k.file;
  const cmNamespace = k.namespaced ? 'req.namespace' : 'CONFIGMAP_NAMESPACE';
  const nsConst = k.namespaced
    ? ''
    : `/** A cluster-scoped ${k.kind} has no namespace: its ConfigMap lives in the operator's own. */
const CONFIGMAP_NAMESPACE = process.env['POD_NAMESPACE'] ?? '${operatorNamespace}';
`;
  return `/**
 * The ${k.kind} controller: keeps a ConfigMap \`<name>-${k.file}\` for each ${k.kind} (the kind in the name, so
 * two kinds of the project never claim the same ConfigMap) holding its spec.message, and says
 * in the ${k.kind}'s \`Ready\` condition whether it could. A deleted ${k.kind} is kept by a finalizer until its
 * cleanup ran: the place for whatever owner references cannot remove (records outside the cluster);
 * here it deletes the ConfigMap, so that is gone before the ${k.kind} is, with or without a garbage collector.
 *
 * Invariants: nothing is written when nothing drifted; every write of the ${k.kind} carries the
 * resourceVersion it was computed from, so a stale cache ends in 409 Conflict instead of a lost update;
 * a ConfigMap another owner controls is never touched (it is read live, so a lagging cache cannot
 * hide it). The calls are the same on every run, so the RBAC the tests record is too.
 */
import {
  ConfigMapResource,
  clone,
  getControllerOf,
  isControlledBy,
  namespacedNameOf,
  setStatusCondition,
  type Clock,
  type NewCondition,
  type ObjectOf,
} from 'kube-converge/meta';
import { createMergePatch, ignoreNotFound, isConflict } from 'kube-converge/client';
import { controllerManagedBy, type Request, type Result } from 'kube-converge/controller';
import {
  addFinalizer,
  containsFinalizer,
  removeFinalizer,
  setControllerReference,
  type Manager,
  type ManagerClient,
} from 'kube-converge/manager';
import { ${k.kind}, type ${k.kind}Status } from ${local(`../api/${k.file}.js`)};

type ${k.kind}Object = ObjectOf<typeof ${k.kind}>;

/** Keeps a deleted ${k.kind} until its cleanup ran. */
export const ${k.kind.toUpperCase()}_FINALIZER = '${finalizerOf(k)}';
const FINALIZER = ${k.kind.toUpperCase()}_FINALIZER;
/** How soon a ${k.kind} whose ConfigMap name is taken looks again: nothing else would tell it the name came free. */
const RETRY_TAKEN_MS = 30_000;
${nsConst}
/** The ConfigMap of the ${k.kind} \`req\` names. */
export const configMapOf${k.kind} = (req: Request): { namespace: string; name: string } => ({
  namespace: ${cmNamespace}${k.namespaced ? " ?? 'default'" : ''},
  name: \`\${req.name}-${k.file}\`,
});

/** Registers the ${k.kind} controller on \`mgr\`. Call before \`mgr.start()\`. */
export function setup${k.kind}Controller(mgr: Manager): void {
  controllerManagedBy(mgr)
    .for(${k.kind}) // a ${k.kind} changed: reconcile it
    .owns(ConfigMapResource) // a ConfigMap it controls changed or vanished: reconcile its ${k.kind}
    .complete(async (req, { client, signal }) => {
      try {
        return await reconcile(req, client, mgr.clock, signal);
      } catch (err) {
        // A conflict proves a newer ${k.kind} exists; its watch event reconciles again.
        if (!isConflict(err)) throw err;
      }
    });
}

async function reconcile(req: Request, client: ManagerClient, clock: Clock, signal: AbortSignal): Promise<Result | void> {
  const cached = client.get(${k.kind}, req); // from the cache: frozen, no network; undefined once deleted
  if (!cached) return;
  const cmKey = configMapOf${k.kind}(req);

  if (cached.metadata.deletionTimestamp) {
    if (!containsFinalizer(cached, FINALIZER)) return;
    const cm = await client.apiReader.get(ConfigMapResource, cmKey, { signal }).catch(ignoreNotFound);
    if (cm && isControlledBy(cm, cached)) await client.delete(ConfigMapResource, cmKey, { signal }).catch(ignoreNotFound);
    // 404: the ${k.kind} is gone already, which is what removing the finalizer was for.
    await patchFinalizers(client, cached, (o) => removeFinalizer(o, FINALIZER), signal).catch(ignoreNotFound);
    return;
  }
  // The finalizer goes on before anything is created, so nothing can outlive the ${k.kind}.
  const ${v} = containsFinalizer(cached, FINALIZER) ? cached : await patchFinalizers(client, cached, (o) => addFinalizer(o, FINALIZER), signal);

  // A live read, not the cache: whether the name is taken must not depend on how far the cache got.
  const existing = await client.apiReader.get(ConfigMapResource, cmKey, { signal }).catch(ignoreNotFound);
  const owner = existing === undefined ? undefined : getControllerOf(existing);
  if (owner !== undefined && owner.uid !== ${v}.metadata.uid) {
    const message = \`ConfigMap \${cmKey.name} is controlled by \${owner.kind} \${owner.name}\`;
    await writeReady(client, ${v}, { status: 'False', reason: 'ConfigMapTaken', message }, clock, signal);
    return { requeueAfter: RETRY_TAKEN_MS };
  }
  const desired: ObjectOf<typeof ConfigMapResource> = existing === undefined ? { metadata: { ...cmKey } } : clone(existing);
  setControllerReference(${v}, desired); // its events map back to the ${k.kind}
  desired.data = { message: ${v}.spec.message };
  if (existing === undefined) {
    await client.create(ConfigMapResource, desired, { signal });
  } else {
    const patch = createMergePatch(existing, desired);
    if (Object.keys(patch).length > 0) await client.patch(ConfigMapResource, cmKey, patch, 'merge', { signal });
  }
  await writeReady(client, ${v}, { status: 'True', reason: 'ConfigMapWritten', message: \`ConfigMap \${cmKey.name} holds the message\` }, clock, signal);
}

/** Writes the finalizer list \`change\` made, guarded by the resourceVersion it was computed from. */
function patchFinalizers(
  client: ManagerClient,
  ${v}: ${k.kind}Object,
  change: (o: ${k.kind}Object) => boolean,
  signal: AbortSignal,
): Promise<${k.kind}Object> {
  const copy = clone(${v}) as ${k.kind}Object;
  change(copy);
  const patch = { metadata: { finalizers: copy.metadata.finalizers ?? [], resourceVersion: ${v}.metadata.resourceVersion } };
  return client.patch(${k.kind}, namespacedNameOf(${v}), patch, 'merge', { signal });
}

/** Sets \`Ready\` for the current generation and writes the status subresource, only when it changed. */
async function writeReady(
  client: ManagerClient,
  ${v}: ${k.kind}Object,
  ready: Omit<NewCondition, 'type' | 'observedGeneration'>,
  clock: Clock,
  signal: AbortSignal,
): Promise<void> {
  const observedGeneration = ${v}.metadata.generation ?? 0;
  const conditions = structuredClone(${v}.status?.conditions ?? []);
  setStatusCondition(conditions, { type: 'Ready', ...ready, observedGeneration }, clock.now());
  const status: ${k.kind}Status = { ...${v}.status, observedGeneration, conditions };
  if (Object.keys(createMergePatch({ status: ${v}.status ?? {} }, { status })).length === 0) return;
  const patch = { metadata: { resourceVersion: ${v}.metadata.resourceVersion }, status };
  await client.status().patch(${k.kind}, namespacedNameOf(${v}), patch, 'merge', { signal });
}
`;
}

function testFile(k: KindNames): string {
  const v = k.file;
  // Object names carry the kind, so the kinds' tests never touch each other's objects.
  const key = (name: string): string =>
    k.namespaced ? `{ namespace: 'default', name: '${name}-${k.file}' }` : `{ name: '${name}-${k.file}' }`;
  return `// The ${k.kind} controller against the in-process API server (no cluster): what a user sees happen to a
// ${k.kind}, its ConfigMap and its Ready condition. \`npm test\` runs it after compiling, from the project's folder.
// \`eventually\` comes from as-operator.ts: when it gives up while the operator was refused a call (403),
// its failure names the call, and \`npm run rbac\` adds the permission.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, findStatusCondition } from 'kube-converge/meta';
import { ignoreNotFound, isNotFound } from 'kube-converge/client';
import { TestEnv } from 'kube-converge/testing';
import { asOperator, eventually, type Operator } from ${local('./as-operator.js')};
import { ${k.kind} } from ${local(`../src/api/${k.file}.js`)};
import { ${k.kind.toUpperCase()}_FINALIZER, configMapOf${k.kind}, setup${k.kind}Controller } from ${local(`../src/controllers/${k.file}.js`)};

let env: TestEnv;
let operator: Operator;
let running: Promise<void>;

before(async () => {
  env = await TestEnv.start({ crds: ['${CRD_DIR}'] });
  operator = await asOperator(env); // with exactly the permissions of config/rbac/
  setup${k.kind}Controller(operator.manager);
  running = operator.manager.start();
});

after(async () => {
  await operator.manager.shutdown();
  await running;
  await operator.saveRecording('${k.file}'); // what npm test's converge rbac --check compares config/rbac/ with
  await env.stop();
});

describe('the ${k.kind} controller', () => {
  it('gives a ${k.kind} a ConfigMap with its message, reports Ready, follows a new message, and deletes the ConfigMap before the ${k.kind} goes', async () => {
    const key = ${key('hello')};
    const cmKey = configMapOf${k.kind}(key);
    await env.client.create(${k.kind}, { metadata: key, spec: { message: 'hi' } });
    const cm = await eventually(() => env.client.get(ConfigMapResource, cmKey));
    assert.deepEqual(cm.data, { message: 'hi' });
    const ${v} = await eventually(async () => {
      const latest = await env.client.get(${k.kind}, key);
      assert.equal(findStatusCondition(latest.status?.conditions, 'Ready')?.status, 'True');
      return latest;
    });
    assert.deepEqual(${v}.metadata.finalizers, [${k.kind.toUpperCase()}_FINALIZER]);
    assert.equal(${v}.status?.observedGeneration, ${v}.metadata.generation);

    await env.client.patch(${k.kind}, key, { spec: { message: 'hello again' } }, 'merge');
    await eventually(async () => assert.deepEqual((await env.client.get(ConfigMapResource, cmKey)).data, { message: 'hello again' }));

    await env.client.delete(${k.kind}, key);
    // The test server has no garbage collector: only the finalizer removes the ConfigMap.
    await eventually(() => env.client.get(${k.kind}, key).then(() => false, ignoreNotFound));
    await assert.rejects(env.client.get(ConfigMapResource, cmKey), isNotFound);
  });

  it('reports Ready=False and leaves the ConfigMap alone when another owner controls a ConfigMap of that name', async () => {
    const key = ${key('taken')};
    const cmKey = configMapOf${k.kind}(key);
    const ownerRef = { apiVersion: 'v1', kind: 'Pod', name: 'someone', uid: '00000000-0000-0000-0000-000000000001', controller: true };
    await env.client.create(ConfigMapResource, { metadata: { ...cmKey, ownerReferences: [ownerRef] }, data: { message: 'theirs' } });
    await env.client.create(${k.kind}, { metadata: key, spec: { message: 'mine' } });
    const ready = await eventually(async () => {
      const condition = findStatusCondition((await env.client.get(${k.kind}, key)).status?.conditions, 'Ready');
      assert.equal(condition?.status, 'False');
      return condition;
    });
    assert.equal(ready?.reason, 'ConfigMapTaken');
    assert.deepEqual((await env.client.get(ConfigMapResource, cmKey)).data, { message: 'theirs' });
  });
});
`;
}
