/**
 * Runs the explorer on one catalogue entry, with the bug or with its fix: under fault schedules of the
 * entry's kinds and its scenario, or under specs drawn from the Widget schema. Both searches answer in
 * one shape, so the tests and the benchmark treat every entry alike.
 */
import { explore, exploreInputs } from 'kube-converge/testing';
import { External, Widget, reconciled, type CatalogueEntry } from './widget.js';

/** What a search found: the first failure's seed and report, and how many runs it took. */
export interface Hunt {
  readonly found: boolean;
  readonly seed: number | undefined;
  readonly reason: string | undefined;
  /** The minimal schedule or spec sequence, as JSON, for comparing replays. */
  readonly minimal: string | undefined;
  readonly report: string | undefined;
  readonly runs: number;
  readonly elapsedMs: number;
}

export async function hunt(
  entry: CatalogueEntry,
  options: { fixed: boolean; seeds: number | readonly number[]; budgetMs: number },
): Promise<Hunt> {
  const external = new External();
  const setup = entry.setup(external, options.fixed);
  const converged = reconciled;
  const common = { seeds: options.seeds, budgetMs: options.budgetMs, invariants: entry.invariants(external) };
  if (entry.finds.by === 'faults') {
    const r = await explore(setup, {
      ...common,
      faults: entry.finds.faults,
      crds: [Widget.crd()],
      resource: Widget,
      converged,
      scenario: entry.finds.scenario,
    });
    const f = r.failure;
    return {
      found: !!f,
      seed: f?.seed,
      reason: f?.reason,
      minimal: f && JSON.stringify(f.minimal),
      report: f?.report,
      runs: r.schedules,
      elapsedMs: r.elapsedMs,
    };
  }
  const r = await exploreInputs(setup, { ...common, resource: Widget, converged });
  const f = r.failure;
  return {
    found: !!f,
    seed: f?.seed,
    reason: f?.reason,
    minimal: f && JSON.stringify(f.minimal),
    report: f?.report,
    runs: r.runs,
    elapsedMs: r.elapsedMs,
  };
}
