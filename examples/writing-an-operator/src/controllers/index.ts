// Every controller of the operator; main.ts registers them all on its manager.
import type { Manager } from 'kube-converge/manager';
import { KeyIssuer } from '../issuer.js';
import { setupApiKeyController } from './apikey.js';

/** Registers every controller of the operator on `mgr`. Call before `mgr.start()`. */
export function setupControllers(mgr: Manager): void {
  // The example's in-memory issuer; a real operator passes a client of the issuer's API here.
  setupApiKeyController(mgr, { issuer: new KeyIssuer(['billing', 'search']) });
}
