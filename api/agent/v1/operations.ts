import * as v from 'valibot';
import { JOB_EVENT_TYPES } from '../../../core/jobs/index.js';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, RATE_LIMIT_HEADERS } from '../../openapi/components.js';
import { schemaRef, type NamedJsonSchemas, type NamedSchemas, type OperationSpec } from '../../openapi/operation.js';
import type { Schema } from '../../openapi/types.js';
import { CreateSessionBody, ListSessionsQuery, MAX_TAKE } from './schemas.js';
import { SessionSchema } from './session.js';

/** Every v1 operation says what it is compatible with, for readers and for tools that group by it. */
const MINTLIFY: Pick<OperationSpec, 'tags' | 'extensions'> = { tags: ['agent (Mintlify v1)'], extensions: { 'x-mintlify-compatible': true } };
const security = 'admin';
const segment = (description: string) => v.pipe(v.string(), v.minLength(1), v.description(description));
const ProjectParams = v.object({ projectId: segment('A project of the key’s organisation (Mintlify’s `projectId` or `domain`).') });
const SessionParams = v.object({ ...ProjectParams.entries, id: segment('The session id (`job_…`).') });

/** One event of the v1 run stream (run-frame.ts): no `event:` line (so the default `message`), `data` one JSON object. */
const runEvent: Schema = {
  type: 'object',
  required: ['data'],
  description: 'One event: `id` its sequence number, `data` a JSON object.',
  properties: {
    id: { type: 'string', pattern: '^[0-9]+$' },
    event: { enum: ['message'] },
    data: {
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: {
        type: 'object',
        required: ['type', 'sessionId', 'time', 'data'],
        properties: {
          type: { enum: [...JOB_EVENT_TYPES] },
          sessionId: { type: 'string' },
          time: { type: 'string', format: 'date-time' },
          data: { type: 'object', description: 'The job event’s own payload, as `GET /v2/agent/{projectId}/job/{id}/events` sends it.' },
        },
      },
    },
  },
};

const stringHeader = (description: string): Schema => ({ description, schema: { type: 'string' } });

const create = (path: string, operationId: string, summary: string): OperationSpec => ({
  method: 'post',
  path,
  operationId,
  summary,
  ...MINTLIFY,
  security,
  params: { path: ProjectParams },
  body: CreateSessionBody,
  responses: {
    200: {
      description:
        'The run as server-sent events until the job is idle: each event is an `id:` line (its sequence number) and a `data:` line of JSON `{type, sessionId, time, data}`, `type` one of the job event types of `GET /v2/agent/{projectId}/job/{id}/events`; `: keep-alive` comments while nothing happens.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'X-Session-Id': stringHeader('The job id: `GET /v1/agent/{projectId}/job/{id}` reads it.'),
        'X-Branch-Name': stringHeader('The branch the agent pushes to.'),
        'X-Message-Id': stringHeader('The id of the job’s first message.'),
      },
      // Before OpenAPI 3.2's `itemSchema`, an event stream's `schema` describes each event (as schemathesis reads it).
      content: { 'text/event-stream': { schema: schemaRef('AgentRunEventV1') } },
    },
  },
  // 409: the project's delete has begun.
  errors: [...AUTHENTICATED_POST_ERRORS, 409, 429, 502],
});

/** The v1 session and its create request, each used by two routes, named in the document (`#/components/schemas/…`). */
export const agentV1Schemas: NamedSchemas = { AgentSessionV1: SessionSchema, AgentSessionV1Request: CreateSessionBody };

/** The run stream's event, which both create routes stream, named in the document too (written as JSON Schema: its `data` is a string of JSON). */
export const agentV1JsonSchemas: NamedJsonSchemas = { AgentRunEventV1: runEvent };

/** Mintlify's v1 agent endpoints (routes.ts), from the schemas the routes validate and answer with. */
export const agentV1Operations: OperationSpec[] = [
  create('/v1/agent/{projectId}/job', 'createAgentSessionV1', 'Start an agent job and stream its run (Mintlify-compatible)'),
  create('/v1/agent/job/{projectId}', 'createAgentSessionV1Legacy', 'The same, at the path of Mintlify’s published admin-openapi.json (Mintlify-compatible)'),
  {
    method: 'get',
    path: '/v1/agent/{projectId}/job/{id}',
    operationId: 'getAgentSessionV1',
    summary: 'Read a job as a Mintlify session (Mintlify-compatible)',
    ...MINTLIFY,
    security,
    params: { path: SessionParams },
    responses: { 200: { description: 'The session', body: SessionSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/agent/{projectId}/jobs',
    operationId: 'listAgentSessionsV1',
    summary: 'A project’s jobs as Mintlify sessions, newest first (Mintlify-compatible)',
    ...MINTLIFY,
    security,
    params: { path: ProjectParams, query: ListSessionsQuery },
    responses: { 200: { description: 'A page of sessions', body: v.object({ allSessions: v.pipe(v.array(SessionSchema), v.maxLength(MAX_TAKE)) }) } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
