import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../../core/jobs/index.js';
import { JobEventSchema } from '../../core/jobs/job-event-schema.js';
import { TodoSchema } from '../../core/jobs/job-schema.js';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec } from '../openapi/operation.js';
import { CreateJobBody, CreateJobHeaders, DeliveriesQuery, DeliveryListSchema, JobPageSchema, JobParams, JobViewSchema, ListJobsQuery, MessageBody, MessageHeaders, ProjectParams } from './schemas.js';

const security = 'admin';
/** A whole number up to 2147483647, the largest sequence number the database keeps. */
const lastEventId = v.pipe(v.string(), v.regex(/^\s*\d{1,10}\s*$/));

/**
 * The named schemas of the agent's operations (`#/components/schemas/…`): the job every job route
 * answers with, an item of its plan (the v1 session's too), and the job event, a component rather
 * than only the content of a stream's string, so clients generating types from the document (the
 * console's openapi.gen.ts) get it by name.
 */
export const agentSchemas: NamedSchemas = {
  Job: JobViewSchema,
  Todo: TodoSchema,
  JobEvent: v.pipe(
    JobEventSchema,
    v.description('One job event: the JSON of each `data:` line of the job event stream (`GET /v2/agent/{projectId}/job/{id}/events`), as the job event log keeps it.'),
  ),
};

/** One server-sent event (OpenAPI 3.1 reads a stream's `schema` per event): the sequence, the type and the event as JSON. */
const jobEventFrame = {
  type: 'object',
  required: ['id', 'event', 'data'],
  properties: {
    id: { type: 'string', pattern: '^\\d+$' },
    event: { enum: [...JOB_EVENT_TYPES] },
    data: { type: 'string', description: 'A `JobEvent` as JSON.', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/JobEvent' } },
  },
};

/** The agent job endpoints of API.md (routes.ts), from the schemas the routes validate and answer with. */
export const agentOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job',
    operationId: 'createAgentJob',
    summary: 'Start an agent job',
    description:
      'Spends one unit of the project’s `agentCreatesPerHour` only when it starts a job: a create refused with any 4xx or 5xx spends nothing and carries no `RateLimit-*` headers, and one answered with the job its `Idempotency-Key` made spends nothing.',
    security,
    params: { path: ProjectParams, header: CreateJobHeaders },
    body: CreateJobBody,
    responses: { 201: { description: 'The job, `active` (with an `Idempotency-Key` seen before: the job it made, as it is now)', body: JobViewSchema, headers: RATE_LIMIT_HEADERS } },
    // 409: the project's delete has begun.
    errors: [...AUTHENTICATED_POST_ERRORS, 409, 422, 429, 502],
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}',
    operationId: 'getAgentJob',
    summary: 'Read a job (works with no worker running, and for the retention period after it closed)',
    security,
    params: { path: JobParams },
    responses: { 200: { description: 'The job', body: JobViewSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}/events',
    operationId: 'streamAgentJobEvents',
    summary: 'A job’s events as server-sent events, until the job is idle',
    description:
      'Replays the events after `Last-Event-ID` (or `lastEventId`), then streams new ones while the job runs, with `: keep-alive` comments when nothing happens; the stream ends once the job is completed, failed or archived and its closing event is sent.',
    security,
    params: {
      path: JobParams,
      header: v.object({ 'Last-Event-ID': v.optional(v.pipe(lastEventId, v.description('The `id` of the last event the client has; a whole number, at most 2147483647.'))) }),
      query: v.object({ lastEventId: v.optional(v.pipe(lastEventId, v.description('The same, for clients that cannot set headers; the header wins.'))) }),
    },
    responses: {
      200: { description: 'Frames of `id: <seq>`, `event: <type>` and `data:`, whose line is one `JobEvent` (`#/components/schemas/JobEvent`) as JSON.', content: { 'text/event-stream': { schema: jobEventFrame } } },
    },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/message',
    operationId: 'sendAgentMessage',
    summary: 'A follow-up message; queued while a turn runs, resumes a failed job',
    description:
      'Answers 409 (`conflict`) when the job is archived, or, as a job create, while the job’s project is being deleted (nothing of the message is kept and no run starts); 404 once the project is gone. Spends one unit of the project’s `agentMessagesPerHour` only when answered 200: a refused message spends nothing and carries no `RateLimit-*` headers.',
    security,
    params: { path: JobParams, header: MessageHeaders },
    body: MessageBody,
    responses: { 200: { description: 'The job, `active`', body: JobViewSchema, headers: RATE_LIMIT_HEADERS } },
    // 409: the job is archived, or the project's delete has begun.
    errors: [...AUTHENTICATED_POST_ERRORS, 409, 422, 429, 502],
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/archive',
    operationId: 'archiveAgentJob',
    summary: 'Archive a job: stops a running turn; idempotent',
    security,
    params: { path: JobParams },
    responses: { 200: { description: 'The job, `archived`', body: JobViewSchema } },
    errors: [...AUTHENTICATED_POST_ERRORS, 502],
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/jobs',
    operationId: 'listAgentJobs',
    summary: 'A project’s jobs, newest first',
    security,
    params: { path: ProjectParams, query: ListJobsQuery },
    responses: { 200: { description: 'A page of jobs', body: JobPageSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/webhooks/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The project’s webhook delivery log, newest first',
    security,
    params: { path: ProjectParams, query: DeliveriesQuery },
    responses: { 200: { description: 'Deliveries as their latest attempt left them', body: DeliveryListSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
