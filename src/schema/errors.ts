/**
 * The one error the schema layer throws: a definition that Kubernetes cannot take as a CRD (a schema
 * with no structural form, a bad name, conversion or annotation key). It names the path inside the
 * definition (`versions.v1.spec.properties.replicas`, `conversion.service.port`) and the reason, so
 * the fix is obvious without reading the generated YAML.
 */
import { ConvergeError } from '../meta/index.js';

export class SchemaNotStructuralError extends ConvergeError {
  readonly code = 'CONVERGE_SCHEMA_NOT_STRUCTURAL';
  override readonly name = 'SchemaNotStructuralError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}
