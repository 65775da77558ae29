// Test support for operator authors: the in-process API server environment, CRD installation,
// checking objects against a CRD's schema and CEL rules without a server, and polling assertions.
export { eventually } from './eventually.js';
export type { EventuallyOptions } from './eventually.js';
export { TestEnv } from './test-env.js';
export type { TestEnvOptions } from './test-env.js';
export { kubernetesVersions } from './kubernetes-versions.js';
export type { ServiceAccountIdentity, ServiceAccountOptions } from './service-account.js';
export { readRbacRecording } from './rbac-recording.js';
export type { RbacRecording } from './rbac-recording.js';
export type { TestEnvWebhooks, WebhookConfigurationSource } from './webhooks.js';
export { restConfigFor } from './server-config.js';
export { faultInjectingClient } from './fault-injecting-client.js';
export type { ClientFaults, ClientWrite, FaultInjectingClient } from './fault-injecting-client.js';
export { installCrds, loadCrds } from './crds.js';
export type { InstallCrdsOptions, CrdSource, CustomResourceDefinition } from './crds.js';
export { CrdNotServedError, EventuallyTimeoutError } from './errors.js';
export { validateAgainstCrd } from './validate-against-crd.js';
export type { CrdValidationResult, ValidateAgainstCrdOptions } from './validate-against-crd.js';
export { explore, exploreInputs, specSequence, FAULT_KINDS } from './explore/index.js';
export type {
  ExploreOptions,
  ExploreResult,
  ExploreFailure,
  ExploreContext,
  ExploreSetup,
  ScenarioStep,
  Invariant,
  Fault,
  FaultKind,
  ExploreInputsOptions,
  ExploreInputsResult,
  InputFailure,
  InputCondition,
  KindWithCrd,
  Spec,
  SpecSchema,
} from './explore/index.js';
export { TestFleet } from './fleet.js';
export type { TestFleetOptions, TestMember } from './fleet.js';
export { PartitionProxy } from './partition-proxy.js';
