import { AUTHENTICATED_GET_ERRORS, COMMON_HEADERS, errorResponses, jsonResponse, pathParameter } from '../components.js';
import { JOB_EVENT_TYPES } from '../../../core/jobs/index.js';
import { DELIVERY_STATUSES, MAX_DELIVERIES } from '../../../core/webhooks/index.js';
import type { PathItems, Schema } from '../types.js';

const projectId = pathParameter('projectId', 'A project of the key’s organisation.');
const security = [{ adminKey: [] }];

/** One job event: the `data:` of an SSE frame, and the body of a webhook POST (which adds `id`, the delivery id). */
const jobEvent: Schema = {
  type: 'object',
  required: ['seq', 'type', 'time', 'jobId', 'projectId', 'data'],
  properties: {
    seq: { type: 'integer', minimum: 1, description: 'Per job, 1, 2, 3…; the SSE `id`.' },
    type: { enum: [...JOB_EVENT_TYPES] },
    time: { type: 'string', format: 'date-time' },
    jobId: { type: 'string' },
    projectId: { type: 'string' },
    data: { type: 'object', description: 'Summaries by type (README, “Job events”); never file contents.' },
  },
};

/** One server-sent event (Open API 3.1 reads a stream's `schema` per event): the sequence, the type and the event as JSON. */
const jobEventFrame: Schema = {
  type: 'object',
  required: ['id', 'event', 'data'],
  properties: {
    id: { type: 'string', pattern: '^\\d+$' },
    event: { enum: [...JOB_EVENT_TYPES] },
    data: { type: 'string', contentMediaType: 'application/json', contentSchema: jobEvent },
  },
};

const delivery: Schema = {
  type: 'object',
  required: ['deliveryId', 'projectId', 'webhookId', 'url', 'event', 'jobId', 'seq', 'status', 'statusCode', 'attempts', 'lastError', 'updatedAt'],
  properties: {
    deliveryId: { type: 'string', description: 'The `X-Quire-Delivery` header; the same on every attempt.' },
    projectId: { type: 'string' },
    webhookId: { type: 'string' },
    url: { type: 'string' },
    event: { enum: [...JOB_EVENT_TYPES] },
    jobId: { type: 'string' },
    seq: { type: 'integer' },
    status: { enum: [...DELIVERY_STATUSES], description: '`failed`: the last attempt failed and another follows; `abandoned`: retries gave up.' },
    statusCode: { type: ['integer', 'null'], description: 'The receiver’s answer; null when none came.' },
    attempts: { type: 'integer', minimum: 0 },
    lastError: { type: ['string', 'null'] },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const agentEventPaths: PathItems = {
  '/v2/agent/{projectId}/job/{id}/events': {
    get: {
      operationId: 'streamAgentJobEvents',
      summary: 'A job’s events as server-sent events, until the job is idle',
      description:
        'Replays the events after `Last-Event-ID` (or `lastEventId`), then streams new ones while the job runs, with `: keep-alive` comments when nothing happens; the stream ends once the job is completed, failed or archived and its closing event is sent.',
      security,
      parameters: [
        projectId,
        pathParameter('id', 'The job id (`job_…`).'),
        { name: 'Last-Event-ID', in: 'header', required: false, description: 'The `id` of the last event the client has; a whole number.', schema: { type: 'string', pattern: '^\\s*\\d{1,15}\\s*$' } },
        { name: 'lastEventId', in: 'query', required: false, description: 'The same, for clients that cannot set headers; the header wins.', schema: { type: 'string', pattern: '^\\s*\\d{1,15}\\s*$' } },
      ],
      responses: {
        '200': {
          description: 'Frames of `id: <seq>`, `event: <type>`, `data: <job event JSON>`.',
          headers: COMMON_HEADERS,
          content: { 'text/event-stream': { schema: jobEventFrame } },
        },
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
  '/v2/agent/{projectId}/webhooks/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: 'The project’s webhook delivery log, newest first',
      security,
      parameters: [projectId, { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_DELIVERIES, default: 50 } }],
      responses: {
        '200': jsonResponse('Deliveries as their latest attempt left them', {
          type: 'object',
          required: ['deliveries'],
          properties: { deliveries: { type: 'array', items: delivery } },
        }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
