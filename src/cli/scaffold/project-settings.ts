/**
 * The settings `converge create` reads from a project `converge init` wrote: its name, and the group
 * and version of new kinds, kept under "converge" in its package.json. Invariant: a folder without
 * them is refused with a message that says which command made what is missing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScaffoldUsageError, checkGroup, checkProjectName } from './names.js';

/** The `converge` settings `converge init` wrote into the project's package.json. */
export async function projectSettings(dir: string): Promise<{ name: string; group: string; version: string }> {
  const path = join(dir, 'package.json');
  let pkg: { name?: unknown; converge?: { group?: unknown; version?: unknown } };
  try {
    pkg = JSON.parse(await readFile(path, 'utf8')) as typeof pkg;
  } catch (err) {
    throw new ScaffoldUsageError(
      `cannot read ${path} (${(err as Error).message}): run converge create in a project converge init made, or give --dir`,
    );
  }
  const { group, version } = pkg.converge ?? {};
  if (typeof group !== 'string' || typeof version !== 'string') {
    throw new ScaffoldUsageError(`${path} has no "converge": { "group", "version" } settings, which converge init writes`);
  }
  return { name: checkProjectName(String(pkg.name)), group: checkGroup(group), version };
}
