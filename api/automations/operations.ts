import * as v from 'valibot';
import { automationInputSchema } from '../../core/automations/index.js';
import { ProjectParams } from '../agent/schemas.js';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec } from '../openapi/operation.js';
import { AutomationListSchema, AutomationParams, AutomationViewSchema, PauseBody, TriggeredSchema } from './schema.js';

const security = 'admin';
/** The route's own schema; the minimum interval is a check (`QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS`), not part of the shape. */
const CreateBody = v.pipe(
  automationInputSchema(0),
  v.description('Exactly one of `cron` (five fields, or `@hourly`…`@yearly`) and `interval` (`90s`, `15m`, `2h`, `1d`; at least `QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS`).'),
  v.examples([{ cron: '0 9 * * MON', prompt: 'Fix broken links and typos across the docs' }]),
);

/** The automation every automation route answers with, and the body of a pause and a resume, named in the document (`#/components/schemas/…`). */
export const automationsSchemas: NamedSchemas = { Automation: AutomationViewSchema, AutomationPauseRequest: PauseBody };

/** Automations (routes.ts), from the schemas the routes validate and answer with. */
export const automationsOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/v2/agent/{projectId}/automations',
    operationId: 'createAutomation',
    summary: 'Add an automation: a recurring agent job on a Temporal Schedule',
    security,
    params: { path: ProjectParams },
    body: CreateBody,
    responses: { 201: { description: 'The automation', body: AutomationViewSchema } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/automations',
    operationId: 'listAutomations',
    summary: 'A project’s automations, oldest first, with their schedules’ next run times',
    security,
    params: { path: ProjectParams },
    responses: { 200: { description: 'The automations', body: AutomationListSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/automations/{automationId}',
    operationId: 'getAutomation',
    summary: 'Read an automation',
    security,
    params: { path: AutomationParams },
    responses: { 200: { description: 'The automation', body: AutomationViewSchema } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'delete',
    path: '/v2/agent/{projectId}/automations/{automationId}',
    operationId: 'deleteAutomation',
    summary: 'Delete an automation and its schedule; jobs it started go on',
    security,
    params: { path: AutomationParams },
    responses: { 204: { description: 'Deleted.' } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/automations/{automationId}/pause',
    operationId: 'pauseAutomation',
    summary: 'Pause the schedule; idempotent',
    security,
    params: { path: AutomationParams },
    body: PauseBody,
    bodyRequired: false,
    responses: { 200: { description: 'The automation, paused', body: AutomationViewSchema } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/automations/{automationId}/resume',
    operationId: 'resumeAutomation',
    summary: 'Resume the schedule; idempotent',
    security,
    params: { path: AutomationParams },
    body: PauseBody,
    bodyRequired: false,
    responses: { 200: { description: 'The automation', body: AutomationViewSchema } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/automations/{automationId}/trigger',
    operationId: 'triggerAutomation',
    summary: 'Start the automation’s job now (paused or not), as a firing would',
    description:
      '409 `conflict`: the automation’s previous job is still running, the project no longer allows its model, or, as for a job create, the project is being deleted (404 once it is gone). ' +
      'Spends one unit of the project’s `agentCreatesPerHour` only when it starts a job: a trigger refused after counting (the project being deleted, an engine down before its job was stored) gives it back.',
    security,
    params: { path: AutomationParams },
    responses: { 202: { description: 'The job started', body: TriggeredSchema, headers: RATE_LIMIT_HEADERS } },
    errors: [...AUTHENTICATED_POST_ERRORS, 409, 429],
  },
];
