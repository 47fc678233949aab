import { propagation, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Middleware } from 'koa';
import { SpanKind, secondsSince, tracer, withLogFields, type HttpMetrics } from '../core/telemetry/index.js';
import { agentJobWorkflowId } from '../core/contracts/agent-job.js';
import type { AuthState } from './auth.js';

/** The route template the router matched (`/v1/projects/:projectId/jobs`), never the path with its ids. */
function routeOf(ctx: Context): string {
  const matched = ctx._matchedRoute;
  return typeof matched === 'string' ? matched : matched ? 'pattern' : 'unmatched';
}

/**
 * True when the request has a header the registered propagators read (W3C `traceparent` and
 * `baggage` by default, others when OTEL_PROPAGATORS names them): most requests carry none, and
 * extracting from their headers would only find nothing.
 */
function carriesTraceContext(headers: Context['headers']): boolean {
  for (const field of propagation.fields()) if (headers[field] !== undefined) return true;
  return false;
}

/**
 * Instruments every request in one place: a server span (continuing the caller's W3C
 * `traceparent`), the request duration histogram labelled by route template, and the log
 * fields every line inside the request carries (request id, then organisation once known).
 */
export function telemetryMiddleware(metrics: HttpMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const method = ctx.method;
    const parent = carriesTraceContext(ctx.headers) ? propagation.extract(ROOT_CONTEXT, ctx.headers) : ROOT_CONTEXT;
    // Attributes given at the start are copied and checked twice by the SDK; all of them are set once, at the end.
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    const org = () => (ctx.state.auth as AuthState | undefined)?.orgId;
    const fields = () => {
      const orgId = org();
      const base = orgId ? { requestId: ctx.state.requestId as string, org: orgId } : { requestId: ctx.state.requestId as string };
      // A job route's lines name the job and its workflow, as the worker's do (set by the job routers).
      const jobId = ctx.state.jobId as string | undefined;
      return jobId ? { ...base, jobId, workflowId: agentJobWorkflowId(jobId) } : base;
    };
    try {
      // The span and the log fields entered together: one context switch per request.
      await withLogFields(fields, next, trace.setSpan(parent, span));
    } finally {
      const route = routeOf(ctx);
      metrics.observeRequest({ method, route, status: ctx.status, org: org() }, secondsSince(started));
      // An unsampled trace (or tracing off) records nothing: no name or attributes are built for it.
      if (span.isRecording()) {
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.request.method': method, 'http.route': route, 'http.response.status_code': ctx.status });
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  };
}
