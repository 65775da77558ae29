/**
 * The ApiKey controller of the step-by-step guide (docs/writing-an-operator.md): what it watches and
 * which ApiKey each event concerns. Every event — the ApiKey, its Secret, the policy ConfigMap — maps
 * to an ApiKey's key, and one reconcile (`apikey-reconcile.ts`) converges it all.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { ConfigMapResource, SecretResource, type KubeObject } from 'kube-converge/meta';
import { controllerManagedBy, enqueueRequestsFromMapFunc, requestFor, type Request } from 'kube-converge/controller';
import type { Manager } from 'kube-converge/manager';
import type { KeyIssuer } from '../issuer.js';
import { ApiKey, POLICY_CONFIGMAP } from '../api/apikey.js';
import { reconcileApiKey } from './apikey-reconcile.js';

export interface ApiKeyControllerOptions {
  /** Where keys are issued and revoked. */
  issuer: KeyIssuer;
}

/** Registers the ApiKey controller on `mgr`. Call before `mgr.start()`. */
export function setupApiKeyController(mgr: Manager, options: ApiKeyControllerOptions): void {
  // A change to a namespace's policy concerns every ApiKey in that namespace (read from the cache).
  const keysUnderPolicy = (cm: ConfigMap & KubeObject): Request[] =>
    cm.metadata.name === POLICY_CONFIGMAP ? mgr.client.list(ApiKey, { namespace: cm.metadata.namespace }).map(requestFor) : [];

  controllerManagedBy(mgr)
    .for(ApiKey) // an ApiKey changed: reconcile it
    .owns(SecretResource) // a Secret it controls changed or vanished: reconcile its ApiKey
    .watches(ConfigMapResource, enqueueRequestsFromMapFunc(keysUnderPolicy))
    .complete((req, { client, signal }) => reconcileApiKey(req, client, options.issuer, mgr.clock, signal));
}
