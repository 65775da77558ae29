// Public face of the controller layer (filled in by its issue).
export type { ControllerHost, Runnable, ControllerMetrics } from './host.js';
