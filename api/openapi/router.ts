import Router from '@koa/router';
import type { ApiServices } from '../services.js';
import { openApiDocument } from './document.js';

/** GET /openapi.json: the document, built once per process. */
export function openApiRouter(services: ApiServices): Router {
  const document = openApiDocument(services.config.publicUrl);
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
