/**
 * A `Status` as kube-apiserver writes it, byte for byte: the fields in the order of Go's
 * `metav1.Status` (kind, apiVersion, metadata, status, message, reason, details, code), of
 * `StatusDetails` (name, group, kind, uid, causes, retryAfterSeconds) and of `StatusCause` (reason,
 * message, field), every empty string and zero number left out as Go's `omitempty` does, strings
 * escaped as Go escapes them. `metadata` is a struct in Go, so it is always written (`{}` when
 * empty); `details` is a pointer, so it is written whenever it is set. Invariant: every `Status`
 * the server sends, as a body or inside a watch event, is written here.
 */
import type { Status } from '../../meta/index.js';
import { goJsonString } from './go-json-string.js';
import { listMetaJson } from './list-meta-json.js';

type Details = NonNullable<Status['details']>;
type Cause = NonNullable<Details['causes']>[number];

/** `"key":"value"` for a non-empty string, nothing otherwise. */
function str(out: string[], key: string, v: string | undefined): void {
  if (v) out.push(`"${key}":${goJsonString(v)}`);
}

/** `"key":n` for a non-zero number, nothing otherwise. */
function num(out: string[], key: string, v: number | undefined): void {
  if (v) out.push(`"${key}":${v}`);
}

function causeJson(c: Cause): string {
  const out: string[] = [];
  str(out, 'reason', c.reason);
  str(out, 'message', c.message);
  str(out, 'field', c.field);
  return `{${out.join(',')}}`;
}

function detailsJson(d: Details): string {
  const out: string[] = [];
  str(out, 'name', d.name);
  str(out, 'group', d.group);
  str(out, 'kind', d.kind);
  str(out, 'uid', d.uid);
  if (d.causes && d.causes.length > 0) out.push(`"causes":[${d.causes.map(causeJson).join(',')}]`);
  num(out, 'retryAfterSeconds', d.retryAfterSeconds);
  return `{${out.join(',')}}`;
}

/** The JSON text of a `Status`, without the newline that ends a response body. */
export function statusJson(s: Status): string {
  const out: string[] = [];
  str(out, 'kind', s.kind ?? 'Status');
  str(out, 'apiVersion', s.apiVersion ?? 'v1');
  out.push(`"metadata":${listMetaJson(s.metadata ?? {})}`);
  str(out, 'status', s.status);
  str(out, 'message', s.message);
  str(out, 'reason', s.reason);
  if (s.details) out.push(`"details":${detailsJson(s.details)}`);
  num(out, 'code', s.code);
  return `{${out.join(',')}}`;
}
