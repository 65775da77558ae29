// queueWithAdds: only the adds are replaced; everything else is the wrapped queue's own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { PriorityQueue, queueWithAdds } from 'kube-converge/workqueue';

describe('queueWithAdds', () => {
  it('sends every add through the replacement and gets, lengths, done and shutdown to the wrapped queue', async () => {
    const q = new PriorityQueue<string>({ clock: new FakeClock() });
    const seen: string[] = [];
    const w = queueWithAdds(q, {
      add: (item) => (seen.push(`add ${item}`), q.addWithOpts({ priority: 5 }, item)),
      addAfter: (item, ms) => void seen.push(`after ${item} ${ms}`),
      addRateLimited: (item) => void seen.push(`limited ${item}`),
      addWithOpts: (_o, ...items) => void seen.push(`opts ${items.join(',')}`),
    });
    w.add('a');
    w.addAfter('b', 10);
    w.addRateLimited('c');
    w.addWithOpts({ priority: 1 }, 'd', 'e');
    assert.deepEqual(seen, ['add a', 'after b 10', 'limited c', 'opts d,e']);
    assert.equal(w.len(), 1);
    const r = await w.getWithPriority();
    assert.deepEqual([r.item, r.priority], ['a', 5]);
    w.done('a');
    assert.equal(q.len(), 0);
    w.shutDown();
    assert.equal(q.shuttingDown(), true);
    assert.equal(w.shuttingDown(), true);
  });
});
