import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { browserRoutes } from './browser-routes.js';
import { engineClassifier } from '../core/engine-errors.js';
import { errorMiddleware } from './error-middleware.js';
import { FEATURES } from './features.js';
import { requestBody } from './request-body.js';
import { telemetryMiddleware } from './telemetry-middleware.js';
import type { ApiServices, Feature } from './services.js';
import type { Logger } from '../core/logger.js';
import { redisClient } from '../core/platform/index.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's request id when it is a sane one, else a new one; on the response before anything can fail. */
function requestId(ctx: Context, next: Next) {
  const given = ctx.req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  ctx.state.requestId = id;
  ctx.res.setHeader('X-Request-Id', id);
  return next();
}

/** One `info` line per request, with its status and duration; nothing at all (no timing, no promise) when `info` is off. */
function requestLog(log: Logger) {
  const logged = async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      log.info({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  };
  return function logRequest(ctx: Context, next: Next) {
    return log.isLevelEnabled('info') ? logged(ctx, next) : next();
  };
}

/** Builds the Koa app from its services; never listens (the entry point or a test does). */
export function createApp(services: ApiServices, features: Feature[] = FEATURES): Koa {
  const app = new Koa({ proxy: services.config.trustProxy });
  const log = services.logger;
  app.silent = true;
  app.use(requestId);
  app.use(telemetryMiddleware(services.metrics.http));
  app.use(requestLog(log));
  app.use(errorMiddleware(log, engineClassifier(redisClient(services.redis))));
  app.use(browserRoutes(services).routes());
  app.use(requestBody(services.config.bodyLimitBytes));
  for (const feature of features) {
    const router = feature(services);
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
