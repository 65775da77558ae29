// The face of the API server's storage floor: the store (one revision sequencer, the event history,
// snapshots for consistent pages) and the continue tokens that page through a snapshot.
export { Store } from './store.js';
export type { StoredEvent } from './store.js';
export { decodeContinue, encodeContinue } from './continue-token.js';
