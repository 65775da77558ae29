/**
 * The built-in kinds this server stores, one strategy each, in the order they are registered.
 */
import {
  MutatingAdmissionPolicyBindingStrategy,
  MutatingAdmissionPolicyStrategy,
  ValidatingAdmissionPolicyBindingStrategy,
  ValidatingAdmissionPolicyStrategy,
} from './admission-policy.js';
import { ApiServiceStrategy } from './apiservice.js';
import { ConfigMapStrategy } from './configmap.js';
import { CrdStrategy } from './crd.js';
import { CoreEventStrategy, EventsV1Strategy } from './event.js';
import { LeaseStrategy } from './lease.js';
import { NamespaceStrategy } from './namespace.js';
import { PodStrategy } from './pod.js';
import { SecretStrategy } from './secret.js';
import { ServiceStrategy } from './service.js';
import { ServiceAccountStrategy } from './serviceaccount.js';
import { reviewStrategies } from './review.js';
import { STORED_BUILTINS, StoredBuiltinStrategy } from './stored-builtin.js';
import type { Strategy, StoreReader } from './strategy.js';
import { DeploymentStrategy, ReplicaSetStrategy } from './workload.js';
import { WebhookConfigurationStrategy } from './webhook-configuration.js';

/** `store` is all the strategies that check against their neighbours get to see of storage. */
export function builtinStrategies(store: StoreReader): Strategy[] {
  return [
    new NamespaceStrategy(),
    new ConfigMapStrategy(),
    new SecretStrategy(),
    new ServiceStrategy(store),
    new ServiceAccountStrategy(),
    new PodStrategy(),
    new CoreEventStrategy(),
    new DeploymentStrategy(),
    new ReplicaSetStrategy(),
    new EventsV1Strategy(),
    new LeaseStrategy(),
    new CrdStrategy(store),
    new ApiServiceStrategy(),
    ...STORED_BUILTINS.map((d) =>
      d.kind.endsWith('WebhookConfiguration') ? new WebhookConfigurationStrategy(d) : new StoredBuiltinStrategy(d),
    ),
    new ValidatingAdmissionPolicyStrategy(),
    new ValidatingAdmissionPolicyBindingStrategy(),
    new MutatingAdmissionPolicyStrategy(),
    new MutatingAdmissionPolicyBindingStrategy(),
    ...reviewStrategies(),
  ];
}
