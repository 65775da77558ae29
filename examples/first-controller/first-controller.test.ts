// Runs the README's "Write your first controller" code, and checks the README shows it verbatim.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConfigMapResource, SecretResource } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { TestEnv, eventually } from 'kube-converge/testing';
import { LABEL, setupCopyToSecret } from './first-controller.js';

describe('first controller (README)', () => {
  it('keeps a Secret with the data of each labelled ConfigMap, and recreates it when deleted', async () => {
    await using env = await TestEnv.start();
    const mgr = await env.newManager();
    setupCopyToSecret(mgr);
    const running = mgr.start();
    const nn = { namespace: 'default', name: 'settings' };
    const cm = await env.client.create(ConfigMapResource, { metadata: { ...nn, labels: { [LABEL]: 'true' } }, data: { color: 'blue' } });
    await env.client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'unlabelled' }, data: { a: 'b' } });

    const secret = await eventually(() => env.client.get(SecretResource, nn));
    assert.equal(Buffer.from(secret.data!.color!, 'base64').toString(), 'blue');
    assert.equal(secret.metadata.ownerReferences?.[0]?.uid, cm.metadata.uid);

    await env.client.patch(ConfigMapResource, nn, { data: { color: 'green' } }, 'merge');
    await eventually(async () =>
      assert.equal(Buffer.from((await env.client.get(SecretResource, nn)).data!.color!, 'base64').toString(), 'green'),
    );
    await env.client.delete(SecretResource, nn);
    await eventually(() => env.client.get(SecretResource, nn));
    await assert.rejects(env.client.get(SecretResource, { namespace: 'default', name: 'unlabelled' }), (e) => isNotFound(e));
    await mgr.shutdown();
    await running;
  });

  it('is shown verbatim in the README', () => {
    const code = readFileSync(new URL('./first-controller.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    assert.ok(
      readme.includes('```ts\n' + code + '```\n'),
      'README.md must show examples/first-controller/first-controller.ts exactly, in a ```ts block',
    );
  });
});
