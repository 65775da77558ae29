// Imports the cache's private Backoff: a unit test of the reflector's retry backoff.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from 'kube-converge/meta';
import { Backoff } from '../../src/cache/backoff.js';

describe('Backoff', () => {
  it('starts at 800 ms and doubles up to the 30 s cap, jitter adding up to +100 % but never past the cap', () => {
    const clock = new FakeClock();
    const low = new Backoff({ clock, random: () => 0 });
    assert.deepEqual(
      Array.from({ length: 8 }, () => low.next()),
      [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000],
    );
    const high = new Backoff({ clock, random: () => 0.999999 });
    const d = Array.from({ length: 6 }, () => high.next());
    assert.ok(d[0]! > 1599 && d[0]! < 1600);
    assert.ok(d[4]! > 25599 && d[4]! <= 25600);
    assert.equal(d[5], 30000);
  });

  it('jitter stays within [base, 2 × base] for random values in [0, 1)', () => {
    const clock = new FakeClock();
    for (const r of [0, 0.25, 0.5, 0.75, 0.9999]) {
      const b = new Backoff({ clock, random: () => r });
      const first = b.next();
      assert.ok(first >= 800 && first < 1600, `${first}`);
    }
  });

  it('resets to 800 ms after two minutes without a backoff', async () => {
    const clock = new FakeClock();
    const b = new Backoff({ clock, random: () => 0 });
    b.next();
    b.next();
    b.next();
    await clock.advance(120_000);
    assert.equal(b.next(), 6400, 'exactly 2 min is not yet a reset');
    await clock.advance(120_001);
    assert.equal(b.next(), 800);
  });

  it('starts over at 800 ms at once after reset()', () => {
    const b = new Backoff({ clock: new FakeClock(), random: () => 0 });
    assert.deepEqual([b.next(), b.next(), b.next()], [800, 1600, 3200]);
    b.reset();
    assert.deepEqual([b.next(), b.next()], [800, 1600]);
  });
});
