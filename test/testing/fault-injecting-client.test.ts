// faultInjectingClient: write hooks that fail or delay writes, and watch hooks that make the cache lag.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { TestEnv, faultInjectingClient, type ClientWrite } from 'kube-converge/testing';

const cm = (name: string) => ({ metadata: { namespace: 'default', name }, data: { k: 'v' } });

describe('faultInjectingClient', () => {
  it('passes every write through the hook, which can fail it before anything is sent', async () => {
    await using env = await TestEnv.start();
    const seen: ClientWrite[] = [];
    const client = faultInjectingClient(env.client, {
      beforeWrite: (w) => {
        seen.push(w);
        if (w.name === 'refused') throw new Error('injected');
      },
    });
    await client.create(ConfigMapResource, cm('a'));
    await client.patch(ConfigMapResource, { namespace: 'default', name: 'a' }, { data: { k: 'w' } }, 'merge');
    await assert.rejects(client.create(ConfigMapResource, cm('refused')), /injected/);
    await assert.rejects(env.client.get(ConfigMapResource, { namespace: 'default', name: 'refused' }), (e) => isNotFound(e));
    assert.deepEqual(seen.map((w) => [w.verb, w.name, w.resource.plural]), [
      ['create', 'a', 'configmaps'], ['patch', 'a', 'configmaps'], ['create', 'refused', 'configmaps'],
    ]);
  });

  it('holds each watch event until the hook settles, so a cache built on it lags the server', async () => {
    await using env = await TestEnv.start();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const client = faultInjectingClient(env.client, { beforeWatchEvent: (_r, e) => (e.type === 'ADDED' ? gate : undefined) });
    const list = await client.list(ConfigMapResource, { namespace: 'default' });
    const stream = await client.watch(ConfigMapResource, { namespace: 'default', resourceVersion: list.metadata.resourceVersion });
    const received: KubeObject[] = [];
    const reading = (async () => {
      for await (const e of stream) {
        if (e.type === 'ADDED') received.push(e.object);
        if (received.length === 1) return;
      }
    })();
    await env.client.create(ConfigMapResource, cm('late'));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(received.length, 0, 'the event waits at the gate');
    release();
    await reading;
    stream.close();
    assert.equal(received[0]!.metadata.name, 'late');
  });
});
