import Router from '@koa/router';
import type { ApiServices } from '../services.js';
import { feedbackRoutes, type FeedbackRoutesDeps } from './feedback-routes.js';
import { gapRoutes, type GapRoutesDeps } from './gap-routes.js';
import { pageViewRoutes, type PageViewRoutesDeps } from './page-view-routes.js';
import { reportRoutes, type ReportRoutesDeps } from './report-routes.js';

/** What the analytics routes use: the slices of their four parts, and the threads that ratings and reports read. */
export type AnalyticsRouterDeps = Pick<ApiServices, 'threads'> & FeedbackRoutesDeps & ReportRoutesDeps & GapRoutesDeps & PageViewRoutesDeps;

/** Ratings, clicks and page views from front-ends, the analytics API, coverage gaps and the jobs that fill them. */
export function analyticsRouter(services: AnalyticsRouterDeps): Router {
  const { threads } = services;
  const router = new Router();
  feedbackRoutes(router, services, threads);
  reportRoutes(router, services, threads);
  gapRoutes(router, services);
  pageViewRoutes(router, services);
  return router;
}
