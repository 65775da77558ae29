// Public face of the testing layer (filled in by its issue).
export {};
