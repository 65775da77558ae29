/**
 * Where the built-in schema data lives: beside this module in the source tree, which the package
 * ships as it is, so the compiled module under `dist/` reads the same file from `src/`. Reading is
 * synchronous and happens once per process (the caller caches what it parses).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIRS = ['./', '../../../src/apiserver/builtin-schemas/'];

/** The bytes of a data file, from the source tree or, for the compiled module, from the `src/` the package ships. */
export function readDataFile(name: string): Buffer {
  const paths = DIRS.map((dir) => fileURLToPath(new URL(dir + name, import.meta.url)));
  const path = paths.find((p) => existsSync(p));
  if (path === undefined) throw new Error(`the built-in schema data ${name} is missing: looked in ${paths.join(', ')}`);
  return readFileSync(path);
}
