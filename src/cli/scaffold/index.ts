// The face of the project templates behind `converge init` and `converge create api`: names and their
// checks, the files each command writes, and how they are written. Nothing here touches a cluster;
// every function returns files (or text) and the caller decides where they go.
export { kindFiles } from './kind-files.js';
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
export { API_INDEX, CONTROLLERS_INDEX, apiIndexFile, controllersIndexFile, wireApi, wireController, wireRecording } from './wiring.js';
export { addFiles, assertWritable, writeNewProject } from './write-files.js';
export { asOperatorFile, firstRoleFile, leaderElectionRbacFile, rbacCommand, recordingOf, roleFileWith } from './rbac-files.js';
export type { OperatorIdentity } from './rbac-files.js';
