export { openApiRouter } from './router.js';
export { openApiDocument } from './document.js';
export type { PathItems, Operation, Schema } from './types.js';
