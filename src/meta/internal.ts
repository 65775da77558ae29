// The meta layer's internal face: option checks, wire constants and the freeze and time helpers the
// other layers share. Other layers of src/ import it like the public face; it is not in package.json's
// exports, so it is not part of Converge's API and may change with any release.
export { requireInt } from './errors.js';
export { requireDuration } from './errors.js';
export { INITIAL_EVENTS_END_ANNOTATION } from './object.js';
export { formatMicroTime } from './timestamp.js';
export type { JsonObject } from './json-object.js';
export { deepFreezeFresh } from './freeze.js';
export { untilAborted } from './abort.js';
export { formatGVK } from './gvk.js';
export { formatGVR } from './gvk.js';
export { isJsonObject } from './json-object.js';
export { fnv1a64 } from './hash.js';
export { namespaceShardHash } from './hash.js';
export { whenAborted } from './abort.js';
export { clusterKeyOf } from './keys.js';
