// faultInjectingClient: hooks that fail or delay writes, lists and watches, watch hooks that make the
// cache lag or lose events, and ending open watches as the server does at its timeout.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, FakeClock, type KubeObject } from 'kube-converge/meta';
import { isNotFound } from 'kube-converge/client';
import { TestEnv, eventually, faultInjectingClient, type ClientWrite } from 'kube-converge/testing';

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
    assert.deepEqual(
      seen.map((w) => [w.verb, w.name, w.resource.plural]),
      [
        ['create', 'a', 'configmaps'],
        ['patch', 'a', 'configmaps'],
        ['create', 'refused', 'configmaps'],
      ],
    );
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

  it('runs the list and watch hooks before anything is sent, so throwing fails the call', async () => {
    await using env = await TestEnv.start();
    const calls: string[] = [];
    const client = faultInjectingClient(env.client, {
      beforeList: (r, o) => {
        calls.push(`list ${r.plural} ${o?.namespace}`);
        throw new Error('injected: list refused');
      },
      beforeWatch: (r, o) => {
        calls.push(`watch ${r.plural} ${o?.namespace}`);
        throw new Error('injected: watch refused');
      },
    });
    await assert.rejects(client.list(ConfigMapResource, { namespace: 'default' }), /list refused/);
    await assert.rejects(client.watch(ConfigMapResource, { namespace: 'default' }), /watch refused/);
    assert.deepEqual(calls, ['list configmaps default', 'watch configmaps default']);
    assert.equal(client.openWatches, 0);
  });

  it('loses the events the hook drops and delivers the rest in order', async () => {
    await using env = await TestEnv.start();
    const client = faultInjectingClient(env.client, {
      beforeWatchEvent: (_r, e) => (e.type === 'ADDED' && e.object.metadata.name === 'lost' ? 'drop' : undefined),
    });
    const list = await client.list(ConfigMapResource, { namespace: 'default' });
    const stream = await client.watch(ConfigMapResource, { namespace: 'default', resourceVersion: list.metadata.resourceVersion });
    for (const name of ['first', 'lost', 'last']) await env.client.create(ConfigMapResource, cm(name));
    const received: string[] = [];
    for await (const e of stream) {
      if (e.type === 'ADDED') received.push(e.object.metadata.name!);
      if (received.length === 2) break;
    }
    assert.deepEqual(received, ['first', 'last']);
    assert.equal(client.openWatches, 0, 'leaving the loop closed the watch');
  });

  it('ends every open watch cleanly on endWatches, waking a reader that is waiting for an event', async () => {
    await using env = await TestEnv.start();
    const client = faultInjectingClient(env.client, {});
    const list = await client.list(ConfigMapResource, { namespace: 'default' });
    const streams = await Promise.all(
      [1, 2].map(() => client.watch(ConfigMapResource, { namespace: 'default', resourceVersion: list.metadata.resourceVersion })),
    );
    assert.equal(client.openWatches, 2);
    const seen = [0, 0];
    const readers = streams.map(async (stream, i) => {
      for await (const e of stream) if (e.type === 'ADDED') seen[i]!++;
      return seen[i];
    });
    await env.client.create(ConfigMapResource, cm('seen'));
    await eventually(() => seen[0] === 1 && seen[1] === 1, { message: 'both watches delivered the event' });
    client.endWatches();
    assert.deepEqual(await Promise.all(readers), [1, 1], 'both streams ended without an error, after the event they had');
    assert.equal(client.openWatches, 0);
  });
});

describe('faultInjectingClient watchLag', () => {
  it('delivers every watch event a constant time after it arrived, in order, without the lag building up', async () => {
    await using env = await TestEnv.start();
    const clock = new FakeClock();
    const client = faultInjectingClient(env.client, { watchLag: { ms: 1000, clock } });
    const list = await client.list(ConfigMapResource, { namespace: 'default' });
    const stream = await client.watch(ConfigMapResource, { namespace: 'default', resourceVersion: list.metadata.resourceVersion });
    const received: string[] = [];
    const reading = (async () => {
      for await (const e of stream) {
        if (e.type === 'ADDED') received.push(e.object.metadata.name!);
        if (received.length === 2) return;
      }
    })();
    await env.client.create(ConfigMapResource, cm('first'));
    await env.client.create(ConfigMapResource, cm('second'));
    await new Promise((r) => setTimeout(r, 100)); // both arrive (real I/O); the fake clock has not moved
    assert.deepEqual(received, []);
    await clock.advance(999);
    assert.deepEqual(received, []);
    await clock.advance(1); // both arrived at the same fake time: both are due now, not one lag after the other
    await reading;
    stream.close();
    assert.deepEqual(received, ['first', 'second']);
  });
});
