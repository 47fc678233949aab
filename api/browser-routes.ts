import Router from '@koa/router';
import { anyOrigin, browserCors, domainOrigins } from './cors.js';
import type { ApiServices } from './services.js';

/**
 * Every endpoint a page on another origin may call, with its CORS policy.
 * The app mounts this before body parsing and the feature routers, so a 400,
 * 413 or 415 is as readable in the browser as the answer. A feature meant for
 * browsers adds its paths here; admin endpoints are never listed (no CORS).
 */
export function browserRoutes(services: ApiServices): Router {
  const router = new Router();
  const perDomain = browserCors({ policy: domainOrigins(services.tenants), methods: ['POST'] });
  router.all('/discovery/v2/assistant/:domain/message', perDomain);
  router.all('/discovery/v1/assistant/:domain/message', perDomain);
  router.all('/discovery/v1/assistant/:domain/feedback', perDomain);
  router.all('/discovery/v1/search/:domain', perDomain);
  router.all('/discovery/v1/search/:domain/click', perDomain);
  router.all('/discovery/v1/page/:domain', perDomain);
  router.all('/widget.js', browserCors({ policy: anyOrigin, methods: ['GET'] }));
  return router;
}
