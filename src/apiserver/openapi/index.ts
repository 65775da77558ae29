// OpenAPI v3 index and group-version documents generated from the served resources.
export { buildOpenApiV3Document, buildOpenApiV3Index, openApiV3Path } from './document.js';
export { openApiHash } from './hash.js';
export { componentName } from './component-names.js';
export { buildOpenApiV2Protobuf, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from './v2-document.js';
