import Router from '@koa/router';
import type { ApiServices } from '../services.js';
import { openApiDocument } from './document.js';

/** What the OpenAPI route uses: the public URL from the configuration. */
export type OpenApiRouterDeps = Pick<ApiServices, 'config'>;

/** GET /openapi.json: the document, built once per process. */
export function openApiRouter(services: OpenApiRouterDeps): Router {
  const document = openApiDocument(services.config.publicUrl);
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
