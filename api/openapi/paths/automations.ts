import { AUTOMATION_SKIP } from '../../../core/contracts/automation-run.js';
import {
  AUTHENTICATED_GET_ERRORS,
  AUTHENTICATED_POST_ERRORS,
  COMMON_HEADERS,
  errorResponse,
  errorResponses,
  jsonResponse,
  pathParameter,
  RATE_LIMIT_HEADERS,
} from '../components.js';
import type { PathItems, Schema } from '../types.js';
import { JobViewSchema } from '../../agent/schemas.js';
import { jsonSchemaOf } from '../operation.js';

const job = jsonSchemaOf(JobViewSchema);

const when: Schema = { type: 'string', format: 'date-time' };

/** The automation object of README's Automations section. */
const automation: Schema = {
  type: 'object',
  required: [
    'id', 'projectId', 'scheduleId', 'cron', 'interval', 'timezone', 'prompt', 'model', 'asDraft',
    'createdAt', 'paused', 'note', 'nextRunTimes', 'lastRun',
  ],
  properties: {
    id: { type: 'string', description: '`aut_` and 12 characters.' },
    projectId: { type: 'string' },
    scheduleId: { type: 'string', description: 'The Temporal Schedule’s id: `quire-automation-<project>-<id>`.' },
    cron: { type: ['string', 'null'], description: 'Set when the automation fires by a cron expression.' },
    interval: { type: ['string', 'null'], description: 'Set when it fires every interval (`90s`, `15m`, `2h`, `1d`).' },
    timezone: { type: 'string', description: 'The IANA zone the cron expression is read in (`UTC` by default).' },
    prompt: { type: 'string' },
    model: { type: ['string', 'null'], description: 'null: the project’s default model when it fires.' },
    asDraft: { type: 'boolean' },
    createdAt: when,
    paused: { type: 'boolean', description: 'From the schedule; true also when its schedule was deleted outside Quire (the note says so).' },
    note: { type: ['string', 'null'], description: 'The schedule’s note (why it is paused).' },
    nextRunTimes: { type: 'array', items: when, description: 'The schedule’s next firings (empty while paused).' },
    lastRun: {
      type: ['object', 'null'],
      description: 'What the latest firing or trigger did; null before the first.',
      required: ['at', 'jobId', 'skipped'],
      properties: {
        at: when,
        jobId: { type: ['string', 'null'], description: 'The job it started; after a skip, the previous job.' },
        skipped: {
          type: ['object', 'null'],
          required: ['code', 'reason'],
          properties: { code: { enum: Object.values(AUTOMATION_SKIP) }, reason: { type: 'string' } },
        },
      },
    },
  },
};

const note: Schema = { type: 'string', maxLength: 500, description: 'Shown beside the schedule in the Temporal UI.' };

const createBody: Schema = {
  type: 'object',
  required: ['prompt'],
  description: 'Exactly one of `cron` and `interval`.',
  examples: [{ cron: '0 9 * * MON', prompt: 'Fix broken links and typos across the docs' }],
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: 100_000, pattern: '\\S', description: 'What each job is asked; not only whitespace.' },
    cron: { type: 'string', maxLength: 200, description: 'Five fields (minute hour day-of-month month day-of-week, names allowed) or `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`.' },
    interval: { type: 'string', pattern: '^\\d{1,7}[smhd]$', description: 'At least `QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS`, at most 366 days.' },
    timezone: { type: 'string', description: 'IANA zone for `cron` (default `UTC`).' },
    model: { type: 'string', minLength: 1, description: 'One the project allows; default the project’s default when it fires.' },
    asDraft: { type: 'boolean', description: 'Open each job’s pull request as a draft.' },
    paused: { type: 'boolean', description: 'Create it paused.' },
    note,
  },
};

const projectId = pathParameter('projectId', 'A project of the key’s organisation.');
const automationId = pathParameter('automationId', 'The automation id (`aut_…`).');
const security = [{ adminKey: [] }];
const optionalNoteBody: Schema = { required: false, content: { 'application/json': { schema: { type: 'object', properties: { note } } } } };

export const automationsPaths: PathItems = {
  '/v2/agent/{projectId}/automations': {
    post: {
      operationId: 'createAutomation',
      summary: 'Add an automation: a recurring agent job on a Temporal Schedule',
      security,
      parameters: [projectId],
      requestBody: { required: true, content: { 'application/json': { schema: createBody } } },
      responses: { '201': jsonResponse('The automation', automation), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
    get: {
      operationId: 'listAutomations',
      summary: 'A project’s automations, oldest first, with their schedules’ next run times',
      security,
      parameters: [projectId],
      responses: {
        '200': jsonResponse('The automations', { type: 'object', required: ['automations'], properties: { automations: { type: 'array', items: automation } } }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
  },
  '/v2/agent/{projectId}/automations/{automationId}': {
    get: {
      operationId: 'getAutomation',
      summary: 'Read an automation',
      security,
      parameters: [projectId, automationId],
      responses: { '200': jsonResponse('The automation', automation), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
    delete: {
      operationId: 'deleteAutomation',
      summary: 'Delete an automation and its schedule; jobs it started go on',
      security,
      parameters: [projectId, automationId],
      responses: { '204': { description: 'Deleted.', headers: COMMON_HEADERS }, ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/agent/{projectId}/automations/{automationId}/pause': {
    post: {
      operationId: 'pauseAutomation',
      summary: 'Pause the schedule; idempotent',
      security,
      parameters: [projectId, automationId],
      requestBody: optionalNoteBody,
      responses: { '200': jsonResponse('The automation, paused', automation), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
  },
  '/v2/agent/{projectId}/automations/{automationId}/resume': {
    post: {
      operationId: 'resumeAutomation',
      summary: 'Resume the schedule; idempotent',
      security,
      parameters: [projectId, automationId],
      requestBody: optionalNoteBody,
      responses: { '200': jsonResponse('The automation', automation), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
  },
  '/v2/agent/{projectId}/automations/{automationId}/trigger': {
    post: {
      operationId: 'triggerAutomation',
      summary: 'Start the automation’s job now (paused or not), as a firing would',
      security,
      parameters: [projectId, automationId],
      responses: {
        '202': jsonResponse(
          'The job started',
          { type: 'object', required: ['jobId', 'job'], properties: { jobId: { type: 'string' }, job } },
          RATE_LIMIT_HEADERS,
        ),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
        '409': errorResponse('The automation’s previous job is still running, or the project no longer allows its model (`conflict`).'),
      },
    },
  },
};
