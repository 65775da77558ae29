// Public face of the workqueue layer (filled in by its issue).
export {};
