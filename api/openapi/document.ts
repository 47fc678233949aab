import { components } from './components.js';
import { PATHS } from './paths/index.js';
import type { PathItems } from './types.js';

/** The OpenAPI 3.1 document of the whole API, served at GET /openapi.json. */
export function openApiDocument(publicUrl: string): Record<string, unknown> {
  const paths: PathItems = {};
  for (const fragment of PATHS) {
    for (const [path, item] of Object.entries(fragment)) paths[path] = { ...paths[path], ...item };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Quire', version: '0.1.0', description: 'Documentation agent jobs and assistant. README.md and this document are the contract of record.' },
    servers: [{ url: publicUrl }],
    paths,
    components,
  };
}
