// The Kubernetes versions the server can behave as, and what differs between them: the one table of
// version-dependent facts that the registry, the handlers and the docs all read. Rooms import it here.
export { VERSION_CHANGES, VERSIONED_APIS, isOn, servesBuiltin } from './changes.js';
export type { Stage, VersionChange, VersionChangeName } from './changes.js';
