import Router from '@koa/router';
import type { ApiServices } from '../services.js';
import { feedbackRoutes } from './feedback-routes.js';
import { gapRoutes } from './gap-routes.js';
import { pageViewRoutes } from './page-view-routes.js';
import { reportRoutes } from './report-routes.js';

/** Ratings, clicks and page views from front-ends, the analytics API, coverage gaps and the jobs that fill them. */
export function analyticsRouter(services: ApiServices): Router {
  const { threads } = services;
  const router = new Router();
  feedbackRoutes(router, services, threads);
  reportRoutes(router, services, threads);
  gapRoutes(router, services);
  pageViewRoutes(router, services);
  return router;
}
