/**
 * The OpenAPI v2 document (`/openapi/v2`), which client-go only accepts as protocol buffers
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, gnostic's `openapi_v2.Document`).
 * kubectl 1.27 and 1.28 download it before `apply`/`create` to decide how to validate: without it
 * they fail (`failed to download openapi`). It holds just what that decision reads: one PATCH
 * operation per kind, with the `fieldValidation` query parameter and the
 * `x-kubernetes-group-version-kind` extension, so those kubectl versions ask the server to
 * validate (`?fieldValidation=Strict`), as the newer ones do through v3. It has no definitions and
 * its operations declare no `consumes`, so kubectl computes apply patches from its compiled-in
 * types (see `operations.ts` for why).
 */
import type { ServedResource } from '../served-resource.js';
import { boolField, message, messageField, stringField } from './protobuf-writer.js';
import type { Field } from './protobuf-writer.js';

/**
 * The response Content-Type. Clients ask with `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`,
 * but Go's MIME parser rejects the `@`, so the answer must use the dotted form (kubectl fails with
 * `mime: unexpected content after media subtype` otherwise).
 */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

// Field numbers of gnostic's OpenAPIv2.proto.
const DOCUMENT = { swagger: 1, info: 2, paths: 8 } as const;
const INFO = { title: 1, version: 2 } as const;
const PATHS = { path: 2 } as const;
const NAMED = { name: 1, value: 2 } as const;
const PATH_ITEM = { patch: 8 } as const;
const OPERATION = { description: 3, operationId: 5, parameters: 8, vendorExtension: 13 } as const;
const PARAMETERS_ITEM = { parameter: 1 } as const;
const PARAMETER = { nonBodyParameter: 2 } as const;
const NON_BODY_PARAMETER = { query: 3 } as const;
const QUERY_PARAMETER = { in: 2, description: 3, name: 4, type: 6, uniqueItems: 20 } as const;
const ANY = { yaml: 2 } as const;

function queryParameter(name: string, description: string): Field {
  return messageField(OPERATION.parameters, [
    messageField(PARAMETERS_ITEM.parameter, [
      messageField(PARAMETER.nonBodyParameter, [
        messageField(NON_BODY_PARAMETER.query, [
          stringField(QUERY_PARAMETER.in, 'query'),
          stringField(QUERY_PARAMETER.description, description),
          stringField(QUERY_PARAMETER.name, name),
          stringField(QUERY_PARAMETER.type, 'string'),
          boolField(QUERY_PARAMETER.uniqueItems, true),
        ]),
      ]),
    ]),
  ]);
}

function gvkExtension(r: { group: string; version: string; kind: string }): Field {
  return messageField(OPERATION.vendorExtension, [
    stringField(NAMED.name, 'x-kubernetes-group-version-kind'),
    messageField(NAMED.value, [stringField(ANY.yaml, `group: "${r.group}"\nkind: ${r.kind}\nversion: ${r.version}\n`)]),
  ]);
}

function patchPath(r: ServedResource): Field {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const path = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.plural}/{name}` : `${prefix}/${r.plural}/{name}`;
  return messageField(PATHS.path, [
    stringField(NAMED.name, path),
    messageField(NAMED.value, [
      messageField(PATH_ITEM.patch, [
        stringField(OPERATION.description, `partially update the specified ${r.kind}`),
        stringField(OPERATION.operationId, `patch${r.kind}`),
        queryParameter(
          'fieldValidation',
          'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: - Ignore - Warn (default) - Strict',
        ),
        gvkExtension(r),
      ]),
    ]),
  ]);
}

/** The v2 document, protobuf-encoded, for the resources that accept PATCH. */
export function buildOpenApiV2Protobuf(resources: readonly ServedResource[]): Uint8Array {
  const patchable = resources.filter((r) => r.verbs.includes('patch'));
  return message([
    stringField(DOCUMENT.swagger, '2.0'),
    messageField(DOCUMENT.info, [stringField(INFO.title, 'Kubernetes'), stringField(INFO.version, 'v1.36.0')]),
    messageField(DOCUMENT.paths, patchable.map(patchPath)),
  ]);
}
