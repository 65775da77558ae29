/**
 * A built-in kind's record: everything the server needs to serve one kind, declared together in the
 * kind's own file and registered with one line in `builtins.ts`. The strategy carries the descriptor
 * (group, versions, kind, plural, scope, short names, categories, subresources), the write hooks and
 * the printer; the record adds what lives outside the strategy: meta's descriptor of the same kind
 * (which the client layer uses, so it stays in `meta` and is only referenced here), the protobuf
 * message its request bodies decode with, and the request bodies of its POST-only subresources.
 * Invariant: every part is a required field, so a kind cannot be registered with one forgotten;
 * `null` is a decision written down (no meta descriptor, no protobuf), never a default.
 */
import type { KubeObject, ResourceDescriptor } from '../../meta/index.js';
import type { MessageTable, ProtobufKind } from '../protobuf/index.js';
import type { Strategy, StoreReader } from './strategy.js';

/** How a kind's protobuf request bodies decode (kubectl 1.32+ sends them from its typed commands). */
export interface ProtobufEntry {
  /** The top-level message of the kind's objects. */
  message: string;
  /** Message tables the kind brings along, when the built-in tables do not define its messages. */
  tables?: readonly MessageTable[];
}

/** The body a POST-only subresource takes (`pods/eviction` an Eviction), and its protobuf message. */
export interface SubresourceBody {
  subresource: string;
  apiVersion: string;
  kind: string;
  /** The top-level message of the body in the protobuf tables. */
  message: string;
}

/** One built-in kind, whole. */
export interface BuiltinKind {
  /** Makes the kind's strategy; `store` is what a strategy that checks its neighbours may read. */
  readonly strategy: (store: StoreReader) => Strategy;
  /** meta's descriptor of the kind where the client layer predefines one; it must agree with the strategy. */
  readonly resource: ResourceDescriptor<KubeObject> | null;
  /** The protobuf message of the kind, or null where the server takes its bodies as JSON or YAML only. */
  readonly protobuf: ProtobufEntry | null;
  /** The bodies of the kind's POST-only subresources (each also listed by its strategy, with the verb `create`). */
  readonly bodies: readonly SubresourceBody[];
}

/** The protobuf kinds a record declares: the kind itself, at its storage version, then its subresources' bodies. */
export function protobufKindsOf(record: BuiltinKind, strategy: Strategy): ProtobufKind[] {
  const own = record.protobuf
    ? [{ apiVersion: strategy.apiVersion(strategy.storageVersion), kind: strategy.kind, message: record.protobuf.message }]
    : [];
  return [...own, ...record.bodies.map(({ apiVersion, kind, message }) => ({ apiVersion, kind, message }))];
}

/** Throws when a record's meta descriptor names another kind than its strategy serves. */
export function checkBuiltinKind(record: BuiltinKind, strategy: Strategy): void {
  const r = record.resource;
  if (r === null) return;
  const served = strategy.version(r.version);
  if (
    r.group !== strategy.group ||
    r.kind !== strategy.kind ||
    r.plural !== strategy.plural ||
    r.namespaced !== strategy.namespaced ||
    !served?.served
  )
    throw new Error(
      `built-in kind ${strategy.kind}: meta's descriptor (${r.apiVersion} ${r.kind}, ${r.plural}, namespaced ${r.namespaced}) does not match its strategy (${strategy.group}/${strategy.plural}, namespaced ${strategy.namespaced})`,
    );
}
