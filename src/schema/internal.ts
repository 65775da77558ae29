// The schema layer's internal face: what `converge generate` needs to find definitions in a module. Not
// in package.json's exports: not part of Converge's API.
export { isCustomResource } from './define.js';
