// Public face of the cache layer (filled in by its issue).
export {};
