// Public face of the manager layer (filled in by its issue).
export {};
