/**
 * The recording file: what one identity asked of the local API server, in authorization terms, as
 * JSON that `converge rbac` reads and tests write. Invariant: written deterministically (requests
 * sorted, two-space JSON, one trailing newline), so a checked-in recording diffs cleanly; a file
 * that is not a recording is refused with the reason, never read as an empty one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { InvalidOptionError } from '../meta/index.js';
import type { RecordedRequest } from '../apiserver/index.js';

export const RECORDING_KIND = 'RbacRecording';
export const RECORDING_API_VERSION = 'converge.dev/v1alpha1';

/** A recording file's content: the user and its distinct requests. */
export interface RbacRecording {
  apiVersion: typeof RECORDING_API_VERSION;
  kind: typeof RECORDING_KIND;
  /** The user name, e.g. `system:serviceaccount:default:op`. */
  user: string;
  requests: RecordedRequest[];
}

const FIELDS = ['verb', 'apiGroup', 'resource', 'subresource', 'namespace', 'name', 'nonResourceURL'] as const;

const sortKey = (r: RecordedRequest): string => FIELDS.map((f) => r[f] ?? '').join('\u0000');

/** A recording with its requests in one canonical order. */
export function rbacRecording(user: string, requests: readonly RecordedRequest[]): RbacRecording {
  const sorted = [...requests].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return { apiVersion: RECORDING_API_VERSION, kind: RECORDING_KIND, user, requests: sorted };
}

/** Writes a recording as canonical JSON (sorted requests). */
export async function writeRbacRecording(path: string, recording: RbacRecording): Promise<void> {
  await writeFile(path, `${JSON.stringify(rbacRecording(recording.user, recording.requests), null, 2)}\n`);
}

/** Reads and checks a recording file. */
export async function readRbacRecording(path: string): Promise<RbacRecording> {
  const text = await readFile(path, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InvalidOptionError('recording', `${path} is not JSON: ${(e as Error).message}`);
  }
  const r = doc as Partial<RbacRecording> | null;
  if (r?.kind !== RECORDING_KIND || r.apiVersion !== RECORDING_API_VERSION || typeof r.user !== 'string' || !Array.isArray(r.requests))
    throw new InvalidOptionError(
      'recording',
      `${path} is not a ${RECORDING_API_VERSION} ${RECORDING_KIND} (kind, apiVersion, user, requests)`,
    );
  r.requests.forEach((q, i) => {
    if (typeof q?.verb !== 'string' || (typeof q.resource !== 'string' && typeof q.nonResourceURL !== 'string'))
      throw new InvalidOptionError('recording', `${path}: requests[${i}] needs a verb and a resource or nonResourceURL`);
  });
  return r as RbacRecording;
}
