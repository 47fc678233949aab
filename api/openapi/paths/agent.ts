import {
  AUTHENTICATED_GET_ERRORS,
  AUTHENTICATED_POST_ERRORS,
  errorResponses,
  jsonResponse,
  pathParameter,
  RATE_LIMIT_HEADERS,
} from '../components.js';
import { JOB_STOP_REASONS, MAX_SUMMARY_CHARS, MAX_TODO_CHARS, MAX_TODOS, TODO_STATUSES } from '../../../core/jobs/index.js';
import type { PathItems, Schema } from '../types.js';

const JOB_STATUSES = ['active', 'completed', 'failed', 'archived'];

/** The job object of API.md. */
export const job: Schema = {
  type: 'object',
  required: [
    'id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt', 'updatedAt',
    'branch', 'title', 'summary', 'turns', 'filesChanged', 'stopReason', 'todos',
  ],
  properties: {
    id: { type: 'string' },
    status: { enum: JOB_STATUSES },
    source: {
      type: 'object',
      required: ['repository', 'ref'],
      properties: { repository: { type: 'string', description: 'Never with credentials.' }, ref: { type: 'string' } },
    },
    model: { type: 'string', description: 'Empty when no model is configured.' },
    prLink: { type: ['string', 'null'], description: 'The pull request; null while a turn runs or when nothing changed.' },
    createdAt: { type: 'string', format: 'date-time' },
    archivedAt: { type: ['string', 'null'], format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    branch: { type: 'string', description: 'The branch the agent pushes to (`quire/<id>`).' },
    title: { type: ['string', 'null'], description: 'The pull request’s title once a turn changed something, else the latest turn’s; null before the first turn ends.' },
    summary: {
      type: ['string', 'null'],
      maxLength: MAX_SUMMARY_CHARS,
      description: 'The model’s message to the user for the last finished turn, or why nothing changed (then it starts “No files were changed.”); null before the first turn ends.',
    },
    turns: { type: 'integer', minimum: 0, description: 'Turns that have ended (finished or failed); a running one is not counted.' },
    filesChanged: { type: 'array', items: { type: 'string' }, description: 'Docs-relative paths changed across the job’s turns, in the order first changed.' },
    stopReason: {
      type: ['string', 'null'],
      enum: [...JOB_STOP_REASONS, null],
      description: 'The bound that stopped the last finished turn before the model finished (`QUIRE_AGENT_MAX_STEPS`, `…_MAX_TOKENS`, `…_MAX_SECONDS`); null when it finished on its own.',
    },
    todos: {
      type: 'array',
      maxItems: MAX_TODOS,
      description: 'The agent’s plan as it last wrote it; updated when a turn ends.',
      items: {
        type: 'object',
        required: ['id', 'content', 'status'],
        properties: {
          id: { type: 'string' },
          content: { type: 'string', maxLength: MAX_TODO_CHARS },
          status: { enum: [...TODO_STATUSES] },
        },
      },
    },
    error: {
      type: 'object',
      description: 'Only when `failed`.',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

const prompt: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 100_000,
  pattern: '\\S',
  description: 'What to do; not only whitespace.',
};

const jsonBody = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });

const projectId = pathParameter('projectId', 'A project of the key’s organisation.');
const jobId = pathParameter('id', 'The job id (`job_…`).');
const security = [{ adminKey: [] }];

export const agentPaths: PathItems = {
  '/v2/agent/{projectId}/job': {
    post: {
      operationId: 'createAgentJob',
      summary: 'Start an agent job',
      security,
      parameters: [projectId],
      requestBody: jsonBody({
        type: 'object',
        required: ['prompt'],
        examples: [{ prompt: 'Add a troubleshooting section to the quickstart' }],
        properties: {
          prompt,
          model: { type: 'string', minLength: 1, description: 'One the project allows; default the configured model.' },
          asDraft: { type: 'boolean', description: 'Open the pull request as a draft.' },
        },
      }),
      responses: {
        '201': jsonResponse('The job, `active`', job, RATE_LIMIT_HEADERS),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
      },
    },
  },
  '/v2/agent/{projectId}/job/{id}': {
    get: {
      operationId: 'getAgentJob',
      summary: 'Read a job (works with no worker running, and for the retention period after it closed)',
      security,
      parameters: [projectId, jobId],
      responses: { '200': jsonResponse('The job', job), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/agent/{projectId}/job/{id}/message': {
    post: {
      operationId: 'sendAgentMessage',
      summary: 'A follow-up message; queued while a turn runs, resumes a failed job',
      security,
      parameters: [
        projectId,
        jobId,
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Names the message so a retried POST runs one turn. Honoured when it matches `^[A-Za-z0-9._:-]{8,128}$`, else ignored.',
          schema: { type: 'string' },
        },
      ],
      requestBody: jsonBody({ type: 'object', required: ['prompt'], examples: [{ prompt: 'Mention the Windows installer too' }], properties: { prompt } }),
      responses: {
        '200': jsonResponse('The job, `active`', job, RATE_LIMIT_HEADERS),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 409, 429),
      },
    },
  },
  '/v2/agent/{projectId}/job/{id}/archive': {
    post: {
      operationId: 'archiveAgentJob',
      summary: 'Archive a job: stops a running turn; idempotent',
      security,
      parameters: [projectId, jobId],
      responses: { '200': jsonResponse('The job, `archived`', job), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
  },
  '/v2/agent/{projectId}/jobs': {
    get: {
      operationId: 'listAgentJobs',
      summary: 'A project’s jobs, newest first',
      security,
      parameters: [
        projectId,
        { name: 'status', in: 'query', required: false, schema: { enum: JOB_STATUSES } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        { name: 'cursor', in: 'query', required: false, description: 'The `nextCursor` of the previous page.', schema: { type: 'string', minLength: 1, maxLength: 512 } },
      ],
      responses: {
        '200': jsonResponse('A page of jobs', {
          type: 'object',
          required: ['jobs', 'nextCursor'],
          properties: { jobs: { type: 'array', items: job }, nextCursor: { type: ['string', 'null'] } },
        }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
};
