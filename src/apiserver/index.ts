// Public face of the apiserver layer (filled in by its issue).
export {};
