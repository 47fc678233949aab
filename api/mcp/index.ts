export { mcpRouter, type McpDeps } from './router.js';
export { DOCS_TOOLS } from './docs-server.js';
