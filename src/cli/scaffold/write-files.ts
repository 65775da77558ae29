/**
 * Writes a scaffold's files. Invariant: it never overwrites: every refusal (a non-empty target folder,
 * a file that already exists) happens before the first file is written, so a refused command leaves
 * the disk as it was.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface ScaffoldFile {
  /** Relative to the project's folder, with `/` separators. */
  path: string;
  /** Text, or the bytes of a vendored tarball. */
  content: string | Uint8Array;
}

/** A scaffold that would overwrite something; nothing was written. */
export class ScaffoldConflictError extends Error {
  override readonly name = 'ScaffoldConflictError';
}

/** Writes `files` into `dir`, which must be missing or empty. */
export async function writeNewProject(dir: string, files: readonly ScaffoldFile[]): Promise<void> {
  await assertWritable(dir);
  await writeAll(dir, files);
}

/** Refuses a `dir` that exists and is not an empty folder: a new project goes nowhere else. */
export async function assertWritable(dir: string): Promise<void> {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new ScaffoldConflictError(`${dir} exists and is not a folder`);
    const entries = readdirSync(dir);
    if (entries.length > 0) {
      throw new ScaffoldConflictError(
        `${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); choose a new folder with --dir, nothing was written`,
      );
    }
  }
}

/** Adds `files` to the project in `dir`; none of them may exist yet. */
export async function addFiles(dir: string, files: readonly ScaffoldFile[]): Promise<void> {
  const taken = files.filter((f) => existsSync(join(dir, f.path))).map((f) => f.path);
  if (taken.length > 0)
    throw new ScaffoldConflictError(`${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}; nothing was written`);
  await writeAll(dir, files);
}

async function writeAll(dir: string, files: readonly ScaffoldFile[]): Promise<void> {
  for (const f of files) {
    const path = join(dir, f.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.content);
  }
}
