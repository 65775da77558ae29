/**
 * Continue tokens for paginated lists: base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<snapshot revision>,"start":"<next key>"}`, the real server's format.
 * Opaque to clients; the revision pins every page to the first page's snapshot.
 */
import { badRequest } from '../ground/index.js';

export interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('invalid continue token: not a valid token');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p?.v !== 'meta.k8s.io/v1') throw badRequest('invalid continue token: unknown version');
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv)) throw badRequest('invalid continue token: missing resource version');
  if (typeof p.start !== 'string') throw badRequest('invalid continue token: missing start key');
  return { rv: p.rv, start: p.start };
}
