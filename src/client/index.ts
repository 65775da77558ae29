// Public face of the client layer (filled in by its issue).
export {};
