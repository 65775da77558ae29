/**
 * Where the built-in schema data lives: beside this module in the source tree, which the package
 * ships as it is, so the compiled module under `dist/` reads the same files from `src/`. Reading is
 * synchronous and happens once per process per file (the callers cache what they parse).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIRS = ['./', '../../../src/apiserver/builtin-schemas/'];

/** The bytes of a data file, or undefined when no copy of it was generated (see NOTICE.md). */
export function readDataFile(name: string): Buffer | undefined {
  for (const dir of DIRS) {
    const path = fileURLToPath(new URL(dir + name, import.meta.url));
    if (existsSync(path)) return readFileSync(path);
  }
  return undefined;
}
