/**
 * `ListMeta` (a list's and a `Status`'s `metadata`) as kube-apiserver writes it: Go's field order
 * `resourceVersion`, `continue`, `remainingItemCount` (after `selfLink`, which no server sets any
 * more), empty strings left out, the count written whenever it is set (a pointer in Go, so 0 is
 * written too); `shardInfo`, which only sharded lists carry, last. Invariant: the one place that
 * knows this order.
 */
import { goJsonString } from './go-json-string.js';

export interface ListMetaOut {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  /** Set on sharded lists: the list is the shard, not the whole collection. */
  shardInfo?: { selector: string };
}

export function listMetaJson(m: ListMetaOut): string {
  const fields: string[] = [];
  if (m.resourceVersion) fields.push(`"resourceVersion":${goJsonString(m.resourceVersion)}`);
  if (m.continue) fields.push(`"continue":${goJsonString(m.continue)}`);
  if (m.remainingItemCount !== undefined) fields.push(`"remainingItemCount":${m.remainingItemCount}`);
  if (m.shardInfo) fields.push(`"shardInfo":{"selector":${goJsonString(m.shardInfo.selector)}}`);
  return `{${fields.join(',')}}`;
}
