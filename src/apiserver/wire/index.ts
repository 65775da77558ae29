// The face of the wire vocabulary: the server's own request and response shapes, the URL layout
// (routes), content negotiation, decoding of request bodies and Go-compatible JSON for Status and list
// metadata. Every room that handles a request speaks it; none of it touches a socket.
export { bodyText, checkMetadataShape, decodeObject, mediaType, parseDocument } from './decode.js';
export { negotiateOutput, wantsAggregatedDiscovery } from './negotiation.js';
export type { IncludeObject, OutputForm } from './negotiation.js';
export { headerOf } from './request.js';
export type { ApiRequest, ApiResponse, ResponseStream, StreamSink } from './request.js';
export { errorResponse, frozenJson, jsonResponse, statusResponse, textResponse } from './response.js';
export { route } from './router.js';
export { goJson } from './go-json-string.js';
export { statusJson } from './status-json.js';
export { listMetaJson } from './list-meta-json.js';
export type { ListMetaOut } from './list-meta-json.js';
