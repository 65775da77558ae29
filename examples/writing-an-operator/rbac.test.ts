// Checks the RBAC table of docs/writing-an-operator.md against what the ApiKey operator really calls:
// a recording client sits under the manager (cache, live reads, writes, leader election) while the
// operator goes through create, spec change, policy change and delete; the calls, in the terms RBAC
// speaks (resource[/subresource] and verb), must be exactly the table's rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigMapResource, findStatusCondition, type OwnerReference, type ResourceDescriptor } from 'kube-converge/meta';
import { isNotFound, type Client } from 'kube-converge/client';
import { TestEnv, eventually } from 'kube-converge/testing';
import { setupApiKeyController } from './controller.js';
import { KeyIssuer } from './issuer.js';
import { ApiKey, POLICY_CONFIGMAP } from './types.js';

const crd = fileURLToPath(new URL('./crd.yaml', import.meta.url));
const billing = { namespace: 'default', name: 'billing' };

/** `base`, recording each call as `<resource>[/<subresource>]:<verb>` in `calls`. */
function recordingClient(base: Client, calls: Set<string>): Client {
  const record = (r: ResourceDescriptor, verb: string, subresource?: string): void => {
    calls.add(`${r.plural}${subresource ? `/${subresource}` : ''}:${verb}`);
  };
  // Setting blockOwnerDeletion on an owner reference needs `update` on the owner's finalizers (admission).
  const recordBlockedOwners = (body: unknown): void => {
    const refs = (body as { metadata?: { ownerReferences?: OwnerReference[] } } | undefined)?.metadata?.ownerReferences ?? [];
    for (const ref of refs) if (ref.blockOwnerDeletion && ref.kind === ApiKey.kind) calls.add(`${ApiKey.plural}/finalizers:update`);
  };
  return {
    get: (r, nn, o) => (record(r as ResourceDescriptor, 'get', o?.subresource), base.get(r, nn, o)),
    list: (r, o) => (record(r as ResourceDescriptor, 'list'), base.list(r, o)),
    watch: (r, o) => (record(r as ResourceDescriptor, 'watch'), base.watch(r, o)),
    create: (r, obj, o) => (record(r as ResourceDescriptor, 'create'), recordBlockedOwners(obj), base.create(r, obj, o)),
    update: (r, obj, o) => (record(r as ResourceDescriptor, 'update', o?.subresource), recordBlockedOwners(obj), base.update(r, obj, o)),
    updateStatus: (r, obj, o) => (record(r as ResourceDescriptor, 'update', 'status'), base.updateStatus(r, obj, o)),
    patch: (r, nn, p, type, o) => (
      record(r as ResourceDescriptor, 'patch', o?.subresource),
      recordBlockedOwners(p),
      base.patch(r, nn, p, type, o)
    ),
    delete: (r, nn, o) => (record(r as ResourceDescriptor, 'delete'), base.delete(r, nn, o)),
    deleteCollection: (r, o) => (record(r as ResourceDescriptor, 'deletecollection'), base.deleteCollection(r, o)),
  };
}

/** The guide's RBAC table as `<resource>[/<subresource>]:<verb>` entries, without the optional events row. */
function guideRules(): Set<string> {
  const guide = readFileSync(new URL('../../docs/writing-an-operator.md', import.meta.url), 'utf8');
  const table = guide.slice(guide.indexOf('| resource | verbs | why |')).split('\n\n')[0]!.split('\n').slice(2);
  const rules = new Set<string>();
  for (const row of table) {
    const [, resourceCell, verbCell] = row.split('|');
    const resource = /`([^`]+)`/.exec(resourceCell!)![1]!;
    if (resource === 'events') continue; // only for operators that record events
    for (const [, verb] of verbCell!.matchAll(/`([^`]+)`/g)) rules.add(`${resource}:${verb}`);
  }
  return rules;
}

const readyFor = (env: TestEnv, service: string) =>
  eventually(
    async () => {
      const key = await env.client.get(ApiKey, billing);
      const ready = findStatusCondition(key.status?.conditions, 'Ready');
      return (
        ready?.status === 'True' && ready.observedGeneration === key.metadata.generation && ready.message?.startsWith(`key for ${service} `)
      );
    },
    { message: `Ready=True for ${service}` },
  );

describe('the RBAC table of docs/writing-an-operator.md', () => {
  it('lists exactly the calls the ApiKey operator makes, leader election included', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const calls = new Set<string>();
    const mgr = await env.newManager({
      client: recordingClient(env.client, calls),
      leaderElection: { id: 'apikey-operator', namespace: 'default', releaseOnCancel: true },
    });
    setupApiKeyController(mgr, { issuer: new KeyIssuer(['billing', 'search']) });
    const running = mgr.start();

    await env.client.create(ApiKey, { metadata: billing, spec: { service: 'billing' } });
    await readyFor(env, 'billing');
    await env.client.patch(ApiKey, billing, { spec: { service: 'search' } }, 'merge'); // a new key into the existing Secret
    await readyFor(env, 'search');
    await env.client.create(ConfigMapResource, {
      metadata: { namespace: 'default', name: POLICY_CONFIGMAP },
      data: { rotationMinutes: '5' },
    });
    await eventually(async () => (await env.client.get(ApiKey, billing)).status?.conditions?.[0]?.message?.endsWith('every 5 min'));
    await env.client.delete(ApiKey, billing);
    await eventually(() => assert.rejects(env.client.get(ApiKey, billing), (e) => isNotFound(e)));
    await mgr.shutdown();
    await running;

    assert.deepEqual([...calls].sort(), [...guideRules()].sort());
  });
});
