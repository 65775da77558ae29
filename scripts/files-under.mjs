// `filesUnder(dir, keep)`: every file below `dir` whose name `keep` accepts, for the scripts that run
// or check a set of files (tests, benchmarks, the import-cycle check). Invariant: the paths are sorted
// and node_modules folders are never entered, so every caller sees the same files in the same order.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The paths (joined onto `dir`) of the files below `dir` whose name passes `keep`, sorted. */
export function filesUnder(dir, keep) {
  const found = [];
  (function walk(d) {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(name)) found.push(p);
    }
  })(dir);
  return found.sort();
}
