// Public face of the client layer (filled in by its issue).
export { PATCH_CONTENT_TYPES } from './types.js';
export type {
  Client, PatchType, RequestOptions, WriteOptions, ListOptions, WatchOptions, WatchEvent, WatchStream, DeleteOptions, PatchOptions,
} from './types.js';
