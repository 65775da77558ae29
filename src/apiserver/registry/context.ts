/**
 * What every handler works with: the server-wide context (storage, registry, watch hub, clock) and
 * the scope of one resource request (which strategy and version, namespace, name, subresource,
 * query). Plain data, built by the router; handlers never look at the URL again.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, KubeObject } from '../../meta/index.js';
import type { IncludeObject } from '../wire/index.js';
import type { TablePrinter } from '../table/index.js';
import type { Registry } from './registry.js';
import type { Strategy } from './strategy.js';
import type { ApiRequest } from '../wire/index.js';
import type { ServedResource } from '../served-resource.js';
import type { Store } from '../storage/index.js';
import type { WatchHub } from '../watch-hub.js';
import type { ServiceAccountTokens } from '../authentication/index.js';
import type { Decision, RbacAuthorizer } from '../authorization/index.js';
import type { ResourceAttributes } from '../ground/index.js';
import type { UserInfo } from '../ground/index.js';

export interface ServerContext {
  store: Store;
  registry: Registry;
  hub: WatchHub;
  clock: Clock;
  /** The Kubernetes minor version the server behaves as (31 for 1.31); see `ground/kubernetes-version.ts`. */
  kubernetesMinor: number;
  /** Runs follow-up work (namespace and CRD cleanup) after the current request has answered. */
  defer(task: () => void): void;
  newUid(): string;
  /** Renders objects as a `meta.k8s.io/v1` Table. */
  table: TableConverter;
  /** Receives the audit annotations admission policies record for a write. */
  onAdmissionAudit?: ((event: AdmissionAuditEvent) => void) | undefined;
  /** Tokens minted for ServiceAccounts (TokenRequest), and the users they name. */
  tokens: ServiceAccountTokens;
  /** The bearer tokens the server accepts (the admin's, when it has one, and minted ones). */
  authenticateToken(token: string): UserInfo | undefined;
  authorizer: RbacAuthorizer;
  /** Authorizes a check admission makes for a request's user, recorded with that user's requests. */
  authorizeAdmission(user: UserInfo, a: ResourceAttributes): Decision;
}

/** One write's audit annotations from admission policies, as the request's audit event would carry them. */
export interface AdmissionAuditEvent {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  group: string;
  resource: string;
  namespace: string;
  name: string;
  annotations: Record<string, string>;
}

export type TableConverter = (
  objects: KubeObject[],
  resource: ServedResource,
  opts: { includeObject: IncludeObject; now: number; omitColumnDefinitions?: boolean; printer?: TablePrinter },
) => Record<string, unknown>;

export const defaultUid = (): string => randomUUID();

export interface Scope {
  ctx: ServerContext;
  req: ApiRequest;
  query: URLSearchParams;
  strategy: Strategy;
  version: string;
  /** Namespace from the URL ('' when none). */
  namespace: string;
  /** Item name from the URL ('' for collections). */
  name: string;
  /** `status`, `scale`, … ('' for the main resource). */
  subresource: string;
  /**
   * Stored objects as this request's version sees them, converted by the CRD's conversion webhook
   * before the synchronous part of the handler runs (absent where nothing is webhook-converted).
   */
  views?: Map<KubeObject, KubeObject>;
}

/** The storage key of a name in a namespace: `ns/name`, or `name` when cluster-scoped. */
export function storageKey(strategy: Strategy, namespace: string, name: string): string {
  return strategy.namespaced ? `${namespace}/${name}` : name;
}

/** The stored object as seen through the request's group and version. */
export function present(scope: Pick<Scope, 'strategy' | 'version' | 'views'>, obj: KubeObject): KubeObject {
  return scope.views?.get(obj) ?? scope.strategy.toExternal(obj, scope.version);
}

/** `kubernetes-types` marks server-set metadata read-only; the server is the one that sets it. */
export type MutableMeta = { -readonly [K in keyof KubeObject['metadata']]: KubeObject['metadata'][K] };
export const metaOf = (obj: KubeObject): MutableMeta => obj.metadata as MutableMeta;
