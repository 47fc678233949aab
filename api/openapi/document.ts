import { components, errorResponseComponents } from './components.js';
import { CORS_ERRORS } from './parameters.js';
import { componentSchemas } from './operation.js';
import { JSON_SCHEMAS, PATHS, SCHEMAS } from './paths/index.js';
import type { Operation, PathItems } from './types.js';

const acceptsAdminKey = (security: unknown): security is object[] =>
  Array.isArray(security) && security.some((requirement) => typeof requirement === 'object' && requirement !== null && 'adminKey' in requirement);

/**
 * Wherever an admin key is accepted, the console's session cookie is too (api/auth.ts applies
 * the one rule to every admin route); the document says so here once rather than on each route.
 */
function withConsoleSession(item: Record<string, Operation>): Record<string, Operation> {
  return Object.fromEntries(
    Object.entries(item).map(([method, op]) => [method, acceptsAdminKey(op.security) ? { ...op, security: [...op.security, { consoleSession: [] }] } : op]),
  );
}

/** The OpenAPI 3.1 document of the whole API, served at GET /openapi.json. */
export function openApiDocument(publicUrl: string): Record<string, unknown> {
  const paths: PathItems = {};
  for (const fragment of PATHS) {
    for (const [path, item] of Object.entries(fragment)) paths[path] = { ...paths[path], ...withConsoleSession(item) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Quire', version: '0.1.0', description: 'Documentation agent jobs and assistant. README.md and this document are the contract of record.' },
    servers: [{ url: publicUrl }],
    paths,
    components: { ...components, schemas: { ...components.schemas, ...JSON_SCHEMAS, ...componentSchemas(SCHEMAS) }, responses: { ...components.responses, ...errorResponseComponents([CORS_ERRORS]) } },
  };
}
