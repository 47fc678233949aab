import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, COMMON_HEADERS, errorResponses, jsonResponse, pathParameter, RATE_LIMIT_HEADERS } from '../components.js';
import { JOB_EVENT_TYPES, MAX_SUMMARY_CHARS, MAX_TODO_CHARS, MAX_TODOS, TODO_STATUSES } from '../../../core/jobs/index.js';
import {
  DEFAULT_TAKE,
  MAX_BRANCH_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES,
  MAX_SKIP,
  MAX_TAKE,
} from '../../agent/v1/schemas.js';
import { HAULT_REASONS } from '../../agent/v1/session.js';
import type { PathItems, Schema } from '../types.js';

/** Every v1 operation says what it is compatible with, for readers and for tools that group by it. */
const MINTLIFY = { tags: ['agent (Mintlify v1)'], 'x-mintlify-compatible': true };
const security = [{ adminKey: [] }];
const projectId = pathParameter('projectId', 'A project of the key’s organisation (Mintlify’s `projectId` or `domain`).');

/** Mintlify's session, with its field names as its admin-openapi.json spells them (`haulted`, `haultReason`). */
const session: Schema = {
  type: 'object',
  required: ['sessionId', 'subdomain', 'branch', 'haulted', 'todos', 'createdAt'],
  properties: {
    sessionId: { type: 'string', description: 'The job id (`job_…`).' },
    subdomain: { type: 'string', description: 'The project id.' },
    branch: { type: ['string', 'null'], description: 'The branch the agent pushes to.' },
    haulted: { type: 'boolean', description: 'The session stopped running: the job is completed, failed or archived.' },
    haultReason: {
      enum: [...HAULT_REASONS],
      description:
        'Only once `haulted`: `completed` (finished, bounded turns and archived jobs included), `github_missconfigured` (the repository or forge is set up wrong), `error` (any other failure).',
    },
    pullRequestLink: { type: 'string', description: 'The pull request, once a turn changed something; kept while a follow-up runs.' },
    messageToUser: {
      type: 'string',
      maxLength: MAX_SUMMARY_CHARS,
      description: 'The model’s message for the last turn (or why nothing changed); for a failed job, why it failed.',
    },
    todos: {
      type: 'array',
      maxItems: MAX_TODOS,
      items: {
        type: 'object',
        required: ['id', 'content', 'status'],
        properties: { id: { type: 'string' }, content: { type: 'string', maxLength: MAX_TODO_CHARS }, status: { enum: [...TODO_STATUSES] } },
      },
    },
    title: { type: 'string', description: 'Beyond Mintlify’s published schema: the pull request’s title, once a turn has ended.' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

const createBody: Schema = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['messages'],
        examples: [{ branch: 'docs/quickstart-troubleshooting', messages: [{ role: 'user', content: 'Add a troubleshooting section to the quickstart' }] }],
        properties: {
          messages: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_MESSAGES,
            description:
              '`system` messages are added to the agent’s system prompt for every turn; the `user` messages after the last `assistant` one are the request; earlier ones are shown to the model first. Must end with a `user` message that is not only whitespace; at most 200000 characters in all.',
            items: {
              type: 'object',
              required: ['role', 'content'],
              properties: { role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string', maxLength: MAX_MESSAGE_CHARS } },
            },
          },
          branch: {
            type: 'string',
            minLength: 1,
            maxLength: MAX_BRANCH_CHARS,
            pattern: '^[A-Za-z0-9._/-]+$',
            description: 'The branch to push to, created from the project’s branch when missing; not the project’s branch itself. Default `quire/<sessionId>`.',
          },
          asDraft: { type: 'boolean', description: 'Open the pull request as a draft.' },
          model: { type: 'string', minLength: 1, description: 'One the project allows; default the configured model.' },
        },
      },
    },
  },
};

/** One event of the v1 run stream: no `event:` line (so the default `message`), `data` one JSON object. */
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

const createResponses = {
  '200': {
    description:
      'The run as server-sent events until the job is idle: each event is an `id:` line (its sequence number) and a `data:` line of JSON `{type, sessionId, time, data}`, `type` one of the job event types of `GET /v2/agent/{projectId}/job/{id}/events`; `: keep-alive` comments while nothing happens.',
    headers: {
      ...COMMON_HEADERS,
      ...RATE_LIMIT_HEADERS,
      'X-Session-Id': stringHeader('The job id: `GET /v1/agent/{projectId}/job/{id}` reads it.'),
      'X-Branch-Name': stringHeader('The branch the agent pushes to.'),
      'X-Message-Id': stringHeader('The id of the job’s first message.'),
    },
    // Before OpenAPI 3.2's `itemSchema`, an event stream's `schema` describes each event (as schemathesis reads it).
    content: { 'text/event-stream': { schema: runEvent } },
  },
  ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
};

const create = (operationId: string, summary: string): Schema => ({
  ...MINTLIFY,
  operationId,
  summary,
  security,
  parameters: [projectId],
  requestBody: createBody,
  responses: createResponses,
});

export const agentV1Paths: PathItems = {
  '/v1/agent/{projectId}/job': {
    post: create('createAgentSessionV1', 'Start an agent job and stream its run (Mintlify-compatible)'),
  },
  '/v1/agent/job/{projectId}': {
    post: create('createAgentSessionV1Legacy', 'The same, at the path of Mintlify’s published admin-openapi.json (Mintlify-compatible)'),
  },
  '/v1/agent/{projectId}/job/{id}': {
    get: {
      ...MINTLIFY,
      operationId: 'getAgentSessionV1',
      summary: 'Read a job as a Mintlify session (Mintlify-compatible)',
      security,
      parameters: [projectId, pathParameter('id', 'The session id (`job_…`).')],
      responses: { '200': jsonResponse('The session', session), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v1/agent/{projectId}/jobs': {
    get: {
      ...MINTLIFY,
      operationId: 'listAgentSessionsV1',
      summary: 'A project’s jobs as Mintlify sessions, newest first (Mintlify-compatible)',
      security,
      parameters: [
        projectId,
        { name: 'skip', in: 'query', required: false, description: 'Sessions to leave out from the newest.', schema: { type: 'integer', minimum: 0, maximum: MAX_SKIP, default: 0 } },
        { name: 'take', in: 'query', required: false, description: 'Sessions to answer.', schema: { type: 'integer', minimum: 1, maximum: MAX_TAKE, default: DEFAULT_TAKE } },
      ],
      responses: {
        '200': jsonResponse('A page of sessions', { type: 'object', required: ['allSessions'], properties: { allSessions: { type: 'array', maxItems: MAX_TAKE, items: session } } }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
