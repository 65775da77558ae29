// A relist is received page by page: each page's objects are transformed and frozen as the page
// arrives, so no raw page outlives its parse (the relist's peak heap), while the store still changes
// in one step when the list is complete.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from 'kube-converge/meta';
import { cm } from './fake-client.js';
import { harness } from './helpers.js';

describe('relists received page by page', () => {
  it("transforms and freezes a page's objects before the next page is asked for, and fills the store only once the list is complete", async () => {
    const transformed: KubeObject[] = [];
    const h = harness({
      informer: {
        transform: (o) => {
          const { managedFields: _dropped, ...metadata } = o.metadata;
          const t = { ...o, metadata };
          transformed.push(t);
          return t;
        },
        reflector: { pageSize: 2 },
      },
    });
    for (const name of ['a', 'b', 'c', 'd']) h.client.upsert(cm(name));
    const atEachList: { transformed: number; frozen: boolean; stored: number }[] = [];
    const list = h.client.list.bind(h.client);
    h.client.list = ((r, o) => {
      atEachList.push({
        transformed: transformed.length,
        frozen: transformed.every((t) => Object.isFrozen(t) && Object.isFrozen(t.metadata)),
        stored: h.informer.getIndexer().list().length,
      });
      return list(r, o);
    }) as typeof h.client.list;
    h.start();
    await h.advance(0);
    assert.deepEqual(atEachList, [
      { transformed: 0, frozen: true, stored: 0 },
      { transformed: 2, frozen: true, stored: 0 },
    ]);
    assert.deepEqual(h.informer.getIndexer().listKeys().sort(), ['default/a', 'default/b', 'default/c', 'default/d']);
    assert.ok(h.informer.hasSynced());
    await h.stop();
  });
});
