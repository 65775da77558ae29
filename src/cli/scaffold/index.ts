// The face of the project templates behind `converge init`, `converge create api` and `create webhook`: names and their
// checks, the files each command writes, and how they are written. Nothing here touches a cluster;
// every function returns files (or text) and the caller decides where they go.
export { definitionFile, kindFiles } from './kind-files.js';
export {
  FIRST_VERSION,
  ScaffoldUsageError,
  checkGroup,
  checkProjectName,
  checkVersion,
  defaultGroup,
  defaultKind,
  kindNames,
} from './names.js';
export type { KindNames, ProjectNames } from './names.js';
export { CRD_KUSTOMIZATION, SAMPLES_KUSTOMIZATION, addResource, configFiles, crdFileOf, sampleFileOf } from './config-files.js';
export { convergeDependency } from './converge-dependency.js';
export { projectFiles } from './project-files.js';
export {
  API_INDEX,
  CONTROLLERS_INDEX,
  MAIN,
  WEBHOOKS_INDEX,
  apiIndexFile,
  controllersIndexFile,
  webhooksIndexFile,
  wireApi,
  wireController,
  wireMain,
  wireRecording,
  wireWebhook,
} from './wiring.js';
export { ScaffoldConflictError, addFiles, assertWritable, writeNewProject } from './write-files.js';
export type { ScaffoldFile } from './write-files.js';
export { projectSettings } from './project-settings.js';
export { starterCrdFile } from './starter-crd.js';
export {
  DEFAULT_KUSTOMIZATION,
  MANAGER_WEBHOOK_PATCH,
  WEBHOOK_KUSTOMIZATION,
  WEBHOOK_MANIFESTS,
  addPatch,
  spokePlan,
  webhookFileOf,
  webhookFiles,
  webhookInfraFiles,
  webhookKustomization,
  webhookManifests,
} from './webhook-files.js';
export type { WebhookChoice } from './webhook-files.js';
export { asOperatorFile, firstRoleFile, leaderElectionRbacFile, rbacCommand, recordingOf, roleFileWith } from './rbac-files.js';
export type { OperatorIdentity } from './rbac-files.js';
