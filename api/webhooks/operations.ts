import { ProjectParams } from '../agent/schemas.js';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec } from '../openapi/operation.js';
import { WebhookCreateBody, WebhookCreated, WebhookList, WebhookParams, WebhookView } from './schemas.js';

const security = 'admin';

/** The webhook as the routes show it, named in the document (`#/components/schemas/…`). */
export const webhooksSchemas: NamedSchemas = { Webhook: WebhookView };

/** A project's webhooks (routes.ts), from the schemas the routes validate and answer with. */
export const webhooksOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/v2/agent/{projectId}/webhooks',
    operationId: 'listWebhooks',
    summary: 'A project’s webhooks (never a secret)',
    security,
    params: { path: ProjectParams },
    responses: { 200: { description: 'The webhooks', body: WebhookList } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a receiver of the project’s job events; registering its URL again updates it',
    security,
    params: { path: ProjectParams },
    body: WebhookCreateBody,
    responses: { 201: { description: 'The webhook, with its generated signing secret shown this once', body: WebhookCreated } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'delete',
    path: '/v2/agent/{projectId}/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook; its delivery log stays',
    security,
    params: { path: WebhookParams },
    responses: { 204: { description: 'Removed.' } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
