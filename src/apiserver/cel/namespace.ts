/**
 * Namespaced functions (`strings.quote`, `format.dns1123Label`): the engine resolves `a.b()` as a
 * method call on the value `a`, so each namespace is one constant of its own type, and its
 * functions are methods of that type. Returns the type name to declare the functions on.
 */
import type { Environment } from '@marcbachmann/cel-js';

export function registerNamespace(env: Environment, name: string): string {
  const typeName = `${name}Namespace`;
  // A class of its own per namespace: the engine tells types apart by constructor.
  const Namespace = { [typeName]: class {} }[typeName]!;
  env.registerType(typeName, Namespace);
  env.registerConstant(name, typeName, new Namespace());
  return typeName;
}
