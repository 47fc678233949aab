import * as v from 'valibot';
import type { NamedSchemas, OperationSpec } from './openapi/operation.js';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const AnalyticsStats = v.pipe(
  v.object({ queued: count, dropped: count, written: count }),
  v.description('The analytics recorder since the process started: events waiting, lost (queue full or store failing) and written.'),
);
const Checks = v.pipe(v.record(v.string(), v.string()), v.description('Each engine: `ok`, or `down: <reason>`.'));

/** What /readyz answers ready or not, named in the document (`#/components/schemas/…`). */
export const healthSchemas: NamedSchemas = { EngineChecks: Checks, AnalyticsStats };

/** /healthz and /readyz (health.ts). */
export const healthOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'The process answers',
    responses: { 200: { description: 'Alive', body: v.object({ status: v.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Every engine the API needs answers',
    description:
      'A Temporal outage is tolerated (the assistant and reads of jobs still answer; a job create answers 503 with `Retry-After`), and so is a Redis outage under `QUIRE_RATE_LIMIT_ON_STORE_ERROR=open`: 200 with `status: degraded` and the failing checks in `degraded`. Any other engine down (the database, the document index, Redis under `closed`): 503.',
    responses: {
      200: {
        description: 'Ready',
        body: v.object({ status: v.picklist(['ok', 'degraded']), degraded: v.optional(v.array(v.string())), checks: Checks, analytics: v.optional(AnalyticsStats) }),
      },
      503: {
        description: 'An engine is down (`unavailable`)',
        body: v.object({ error: v.string(), code: v.literal('unavailable'), checks: Checks, analytics: v.optional(AnalyticsStats) }),
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The document', body: v.looseObject({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }) } },
  },
];
