/**
 * The built-in kinds this server stores, one strategy each, in the order they are registered.
 */
import type { ServerContext } from '../context.js';
import { ConfigMapStrategy } from './configmap.js';
import { NamespaceStrategy } from './namespace.js';
import type { Strategy } from './strategy.js';

export function builtinStrategies(_ctx: ServerContext): Strategy[] {
  return [new NamespaceStrategy(), new ConfigMapStrategy()];
}
