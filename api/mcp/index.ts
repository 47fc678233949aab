export { mcpRouter } from './router.js';
export { DOCS_TOOLS } from './docs-server.js';
