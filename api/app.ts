import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import { PLAIN_TEXT_JSON_PATH } from './analytics/page-view-routes.js';
import { RAW_BODY_PATH } from './hooks/paths.js';
import { browserRoutes } from './browser-routes.js';
import { engineClassifier } from '../core/engine-errors.js';
import { answerErrorsUnder, errorMiddleware, toQuireError } from './error-middleware.js';
import { mcpErrorBody } from './mcp/router.js';
import { openAiErrorBody } from './openai-compat/wire-format.js';
import { badRequest, HttpError } from './http-error.js';
import { FEATURES } from './features.js';
import { refuseNulInBody, refuseNulInUrl } from './nul-guard.js';
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

function hasBody(ctx: Context): boolean {
  return Boolean(ctx.get('Transfer-Encoding')) || Number(ctx.get('Content-Length') || 0) > 0;
}

/**
 * A request body must be JSON; an empty POST is allowed (the schema then names what is missing).
 * The page-view beacon alone may send its JSON as `text/plain`, as `navigator.sendBeacon` does.
 */
function requireJson(ctx: Context, next: Next) {
  const beacon = PLAIN_TEXT_JSON_PATH.test(ctx.path) && ctx.is('text/plain');
  if (['POST', 'PUT', 'PATCH'].includes(ctx.method) && hasBody(ctx) && !ctx.is('application/json') && !beacon) {
    throw new HttpError(415, 'unsupported_media_type', 'request body must be application/json');
  }
  return next();
}

/** Builds the Koa app from its services; never listens (the entry point or a test does). */
export function createApp(services: ApiServices, features: Feature[] = FEATURES): Koa {
  // Only the entries the trusted proxies appended (the right-hand end of X-Forwarded-For) are
  // believed: the left-hand ones are whatever the client sent, and would pick its own address
  // for the per-IP limits.
  const app = new Koa({ proxy: services.config.trustProxy, maxIpsCount: services.config.trustedProxyHops });
  const log = services.logger;
  app.silent = true;
  app.use(requestId);
  app.use(telemetryMiddleware(services.metrics.http));
  app.use(requestLog(log));
  app.use(errorMiddleware(log, engineClassifier(redisClient(services.redis))));
  // Clients of these protocols read their errors in the protocol's shape, the body parser's included.
  app.use(answerErrorsUnder([
    { prefix: '/discovery/v1/openai/', body: openAiErrorBody },
    { prefix: '/mcp/', body: mcpErrorBody },
  ]));
  app.use(refuseNulInUrl);
  app.use(browserRoutes(services).routes());
  app.use(requireJson);
  const bodyParser = (includeUnparsed: boolean) =>
    koaBody({
      json: true,
      jsonStrict: true,
      multipart: false,
      urlencoded: false,
      text: false,
      includeUnparsed,
      jsonLimit: services.config.bodyLimitBytes,
      // A body that cannot be read (a gzip body that is not gzip, a client gone mid-body) is the request's fault.
      onError: (err) => {
        throw toQuireError(err).status < 500 ? err : badRequest('request body could not be read: check its Content-Encoding');
      },
    });
  // The push hooks check a signature over the body as sent (`ctx.request.rawBody`); no other route keeps a second copy of its body.
  const parseBody = bodyParser(false);
  const parseBodyKeepingRaw = bodyParser(true);
  app.use((ctx, next) => (RAW_BODY_PATH.test(ctx.path) ? parseBodyKeepingRaw(ctx, next) : parseBody(ctx, next)));
  app.use(refuseNulInBody);
  for (const feature of features) {
    const router = feature(services);
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
