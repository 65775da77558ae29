// The face of the handlers: one per verb (create, read and list, update, patch, delete, watch) and
// the write pipeline they share, plus rendering of objects, lists and tables in the negotiated form.
// They know no particular kind: what differs between kinds comes from the strategy in the request's scope.
export { createHandler, reviewHandler } from './create.js';
export { createSubresource } from './create-subresources.js';
export { deleteCollectionHandler, deleteHandler, deleteParams } from './delete.js';
export { patchHandler } from './patch.js';
export { getObject, listObjects } from './read.js';
export { writeParams } from './params.js';
export { queryBool } from './query-bool.js';
export { updateHandler } from './update.js';
export { watchObjects } from './watch.js';
export { withStoredView } from './webhook-conversion.js';
export { createObject, performDelete } from './write-pipeline.js';
export { renderObject } from './render.js';
