/**
 * CRDs for `converge apiserver --crds`: each path (file or folder) is read with the same loader as
 * TestEnv, before the server starts, and created through the in-process handler once it runs.
 * Invariant: every failure names the path it came from, and a refused CRD reads as the server's
 * list of causes (`field: message`), not as a JSON blob.
 */
import { stat } from 'node:fs/promises';
import type { Status } from '../meta/index.js';
import type { RunningApiServer } from '../apiserver/index.js';
import { loadCrds, type CustomResourceDefinition } from '../testing/index.js';

/** A failure the user can fix in the named file or folder. */
export class CrdSourceError extends Error {
  override readonly name = 'CrdSourceError';
}

export interface LoadedCrds {
  path: string;
  crds: CustomResourceDefinition[];
}

/** `--crds a.yaml,dir --crds b.yaml` → `['a.yaml', 'dir', 'b.yaml']`. */
export function crdPaths(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Reads every path; `warn` hears of a path that holds no CRD. */
export async function readCrds(paths: readonly string[], warn: (message: string) => void): Promise<LoadedCrds[]> {
  const out: LoadedCrds[] = [];
  for (const path of paths) {
    let crds: CustomResourceDefinition[];
    try {
      crds = await loadCrds([path]);
    } catch (err) {
      const reason = (err as { reason?: unknown }).reason;
      throw new CrdSourceError(`--crds ${path}: ${typeof reason === 'string' ? reason : (err as Error).message}`, { cause: err });
    }
    if (crds.length === 0) {
      const folder = await stat(path).then((s) => s.isDirectory());
      warn(
        folder
          ? `--crds ${path}: the folder holds no CustomResourceDefinition (*.yaml, *.yml, *.json)`
          : `--crds ${path}: the file holds no CustomResourceDefinition`,
      );
    }
    out.push({ path, crds });
  }
  return out;
}

/** Creates the CRDs in order; returns how many. */
export async function createCrds(server: Pick<RunningApiServer, 'handle'>, loaded: readonly LoadedCrds[]): Promise<number> {
  let n = 0;
  for (const { path, crds } of loaded) {
    for (const crd of crds) {
      const r = await server.handle({
        method: 'POST',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        headers: { 'content-type': 'application/json', 'user-agent': 'converge' },
        body: JSON.stringify(crd),
      });
      if (r.status !== 201) throw new CrdSourceError(`--crds ${path}: ${refusal(crd.metadata?.name ?? '(no name)', r.status, r.body)}`);
      n++;
    }
  }
  return n;
}

/** The server's answer as a sentence, and a 422's causes one per line. */
function refusal(name: string, code: number, body: string): string {
  let status: Status | undefined;
  try {
    status = JSON.parse(body) as Status;
  } catch {
    return `creating CustomResourceDefinition ${name} failed (${code}): ${body}`;
  }
  const causes = status.details?.causes ?? [];
  if (code === 422 && causes.length > 0) {
    const lines = causes.map((c) => `  - ${c.field ? `${c.field}: ` : ''}${c.message ?? c.reason ?? ''}`);
    return `CustomResourceDefinition ${name} is invalid:\n${lines.join('\n')}`;
  }
  return `creating CustomResourceDefinition ${name} failed (${code} ${status.reason ?? ''}): ${status.message ?? body}`;
}
