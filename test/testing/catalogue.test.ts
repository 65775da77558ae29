// The fault explorer against the catalogue of buggy operators (test/testing/catalogue): for each bug
// class, the explorer reports the buggy operator with a seed, the seed replays the same minimal
// failure, and the fixed twin passes. Bugs of input handling are found by `exploreInputs` from the
// Widget schema alone; the others by fault schedules over a small scenario. Seed counts are small and
// bound the search rather than time, so that a loaded machine runs the same schedules: this runs in
// `npm test`; bench/testing/catalogue.bench.ts measures time to first failure at full speed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hunt } from './catalogue/hunt.js';
import { CATALOGUE } from './catalogue/index.js';

/** Seeds a buggy operator may take before the explorer must have found it (the benchmark reports how many it takes). */
const SEARCH_SEEDS = 60;
/** Seeds its fixed twin must pass: the first ones, which found every bug. */
const FIXED_SEEDS = 8;
/** Namespaces and uids differ from run to run; the rest of a reason must not. */
const stable = (s: string | undefined) => s?.replace(/(explore|inputs)-[\d-]+/g, 'ns').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'uid');

describe('the explorer on the catalogue of operator bugs', () => {
  it('has at least twelve bug classes, each with its own name', () => {
    assert.ok(CATALOGUE.length >= 12);
    assert.equal(new Set(CATALOGUE.map((e) => e.name)).size, CATALOGUE.length);
  });

  for (const entry of CATALOGUE) {
    it(`finds ${entry.name} (${entry.bugClass}), replays it by its seed, and passes the fixed twin`, async () => {
      const found = await hunt(entry, { fixed: false, seeds: SEARCH_SEEDS, budgetMs: Infinity });
      assert.ok(found.found, `${entry.name}: no failure in ${found.runs} runs`);
      assert.match(found.report!, new RegExp(`replay it with seeds: \\[${found.seed}\\]`));
      console.log(`${entry.name}: found after ${found.runs} runs\n${found.report}`);

      const again = await hunt(entry, { fixed: false, seeds: [found.seed!], budgetMs: Infinity });
      assert.deepEqual(
        { seed: again.seed, minimal: stable(again.minimal), reason: stable(again.reason) },
        { seed: found.seed, minimal: stable(found.minimal), reason: stable(found.reason) },
      );

      const fixed = await hunt(entry, { fixed: true, seeds: FIXED_SEEDS, budgetMs: Infinity });
      assert.equal(fixed.found, false, fixed.report);
    });
  }
});
