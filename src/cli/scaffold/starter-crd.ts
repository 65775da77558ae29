/**
 * The CRD file of a scaffolded kind, as `converge init` and `converge create api` put it into
 * config/crd/bases/. The project is not installed yet when it is written, so its definition module cannot
 * be imported: the definition kind-files.ts writes into src/api/<kind>.ts is built here in process,
 * and rendered the way `converge generate` renders a file. Invariant: byte for byte what the
 * project's `npm run generate` writes, so its first `npm test` (`converge generate --check`) passes;
 * the e2e test of `converge init` proves it on a fresh project.
 */
import { posix } from 'node:path';
import { Type } from 'typebox';
import { Conditions, defineCustomResource } from '../../schema/index.js';
import { renderCrd } from '../generate.js';
import type { KindNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';

/** Where the CRDs go, and the compiled module `converge generate` reads them from. */
export const CRD_DIR = 'config/crd/bases';
export const API_MODULE = 'dist/src/api/index.js';

/**
 * A second version `converge create webhook --conversion` adds to a kind: served, not stored, its
 * conversions done by the webhook behind `service`, whose CA cert-manager injects from the Certificate `caFrom`.
 */
export interface SpokePlan {
  spoke: string;
  service: { namespace: string; name: string };
  /** `<namespace>/<Certificate name>`, the value of cert-manager's `inject-ca-from` annotation. */
  caFrom: string;
}

/** `v1beta1` → `V1beta1`: a version as part of a TypeScript name. */
export const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** The definition of src/api/<kind>.ts, field for field (kind-files.ts's definitionFile). */
function starterDefinition(k: KindNames, conversion?: SpokePlan) {
  const description = `What the ${k.kind}'s ConfigMap holds under "message".`;
  const status = Type.Object({
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation this status describes.' })),
    conditions: Type.Optional(Conditions()),
  });
  const version = (storage: boolean, spec: ReturnType<typeof Type.Object>) => ({
    served: true,
    storage,
    spec,
    status,
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string' as const, jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date' as const, jsonPath: '.metadata.creationTimestamp' },
    ],
  });
  return defineCustomResource({
    group: k.group,
    kind: k.kind,
    scope: k.namespaced ? 'Namespaced' : 'Cluster',
    versions: {
      [k.version]: version(true, Type.Object({ message: Type.String({ minLength: 1, description }) })),
      ...(conversion ? { [conversion.spoke]: version(false, Type.Object({ text: Type.String({ minLength: 1, description }) })) } : {}),
    },
    ...(conversion
      ? {
          conversion: {
            strategy: 'Webhook' as const,
            service: { ...conversion.service, path: '/convert' },
            conversionReviewVersions: ['v1'] as const,
          },
          crdAnnotations: { 'cert-manager.io/inject-ca-from': conversion.caFrom },
        }
      : {}),
  });
}

/** The CRD of the definition `definitionFile(k, conversion)` writes. */
export function starterCrdFile(k: KindNames, conversion?: SpokePlan): ScaffoldFile {
  const def = starterDefinition(k, conversion);
  const from = posix.relative(CRD_DIR, API_MODULE);
  return {
    path: `${CRD_DIR}/${def.group}_${def.plural}.yaml`,
    content: renderCrd(def, from),
  };
}
