import {
  AUTHENTICATED_GET_ERRORS,
  AUTHENTICATED_POST_ERRORS,
  COMMON_HEADERS,
  errorResponse,
  errorResponses,
  jsonResponse,
  pathParameter,
} from '../components.js';
import type { PathItems, Schema } from '../types.js';

/** The admin and operator routes; their shapes follow api/admin/schemas.ts. */

const when: Schema = { type: 'string', format: 'date-time' };
const nullableWhen: Schema = { type: ['string', 'null'], format: 'date-time' };
const tenantId: Schema = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' };
const webUrl: Schema = { type: 'string', format: 'uri', description: 'An http(s) URL.' };
const forge: Schema = { enum: ['local', 'github', 'gitlab'] };
const security = [{ adminKey: [] }];
const operatorSecurity = [{ operatorToken: [] }];

const project: Schema = {
  type: 'object',
  required: ['id', 'orgId', 'repository', 'branch', 'docsPath', 'forge', 'allowedModels', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    orgId: { type: 'string' },
    repository: { type: 'string', description: 'Clone URL or local path of the docs repository.' },
    branch: { type: 'string' },
    docsPath: { type: 'string', description: 'Folder of the docs inside the repository, empty for the root.' },
    forge,
    forgeTokenEnv: { type: 'string', description: 'Name of the variable holding the forge token; never the token.' },
    allowedModels: { type: 'array', items: { type: 'string' } },
    createdAt: when,
    updatedAt: when,
  },
};

const domain: Schema = {
  type: 'object',
  required: ['id', 'orgId', 'source', 'docsPath', 'baseUrl', 'includeHidden', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    orgId: { type: 'string' },
    source: { type: 'string', description: 'Git URL or local folder of the docs.' },
    branch: { type: 'string' },
    docsPath: { type: 'string' },
    baseUrl: { type: 'string', description: 'Public site the citations link to.' },
    includeHidden: { type: 'boolean' },
    supportContact: { type: 'string' },
    allowedOrigins: { type: 'array', items: { type: 'string' }, description: 'Absent: any origin.' },
    createdAt: when,
    updatedAt: when,
  },
};

const keyProperties: Record<string, Schema> = {
  id: { type: 'string', description: '`key_` and 16 hex digits.' },
  kind: { enum: ['admin', 'assistant'] },
  prefix: { type: 'string', description: 'The first characters of the secret, to tell keys apart.' },
  createdAt: when,
  lastUsedAt: { ...nullableWhen, description: 'Recorded at most once a minute.' },
  expiresAt: nullableWhen,
  revokedAt: nullableWhen,
};
const keyRequired = ['id', 'kind', 'prefix', 'createdAt', 'lastUsedAt', 'expiresAt', 'revokedAt'];
const key: Schema = { type: 'object', required: keyRequired, properties: keyProperties };
const keyCreated: Schema = {
  type: 'object',
  required: [...keyRequired, 'secret'],
  properties: { ...keyProperties, secret: { type: 'string', description: 'The key itself, shown this once.' } },
};

const limits: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    ['agentCreatesPerHour', 'agentMessagesPerHour', 'assistantPerKeyPerMonth', 'assistantPerOrgPerHour', 'assistantPerIpPerDay'].map((name) => [
      name,
      { type: 'integer', minimum: 0 },
    ]),
  ),
};
const org: Schema = { type: 'object', required: ['id', 'createdAt'], properties: { id: { type: 'string' }, createdAt: when, limits } };

const indexStatus: Schema = {
  type: 'object',
  required: ['domainId', 'workflowId', 'runId', 'status', 'startedAt', 'closedAt', 'progress', 'commit', 'pages'],
  properties: {
    domainId: { type: 'string' },
    workflowId: { type: 'string' },
    runId: { type: 'string' },
    status: { enum: ['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new', 'unknown'] },
    startedAt: when,
    closedAt: nullableWhen,
    progress: {
      type: ['object', 'null'],
      description: 'While running: page files of finished batches out of the total; null otherwise, or when no worker answered.',
      required: ['phase', 'done', 'total', 'embedded'],
      properties: { phase: { enum: ['checkout', 'indexing', 'cleanup', 'done'] }, done: { type: 'integer' }, total: { type: 'integer' }, embedded: { type: 'integer' } },
    },
    commit: { type: ['string', 'null'], description: 'The commit of the docs a completed run indexed; null while running, after a failure, or for a folder outside git.' },
    pages: { type: ['integer', 'null'], description: 'The pages a completed run indexed; null otherwise.' },
  },
};

const strict = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', additionalProperties: false, required, properties });
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

const projectFields: Record<string, Schema> = {
  repository: { type: 'string', minLength: 1 },
  branch: { type: 'string', minLength: 1, description: 'Default `main`.' },
  docsPath: { type: 'string' },
  forge: { ...forge, description: 'Default `local`.' },
  forgeTokenEnv: { type: 'string', description: 'Required with github and gitlab.' },
  allowedModels: { type: 'array', items: { type: 'string' } },
};
const domainFields: Record<string, Schema> = {
  source: { type: 'string', minLength: 1 },
  branch: { type: 'string', minLength: 1 },
  docsPath: { type: 'string' },
  baseUrl: webUrl,
  includeHidden: { type: 'boolean' },
  supportContact: { type: 'string', minLength: 1 },
  allowedOrigins: { type: 'array', items: webUrl },
};
const body = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });

const projectId = pathParameter('projectId', 'A project of the key’s organisation.');
const domainId = pathParameter('domainId', 'A domain of the key’s organisation.');
const keyId = pathParameter('keyId', 'A key of the organisation (`key_…`).');
const noContent = { description: 'Done.', headers: COMMON_HEADERS };
const taken = { '409': errorResponse('The id is taken, by this organisation or another (`conflict`).') };

export const adminPaths: PathItems = {
  '/v2/admin/projects': {
    get: {
      operationId: 'adminListProjects',
      summary: 'The organisation’s projects',
      security,
      responses: {
        '200': jsonResponse('The projects', { type: 'object', required: ['projects'], properties: { projects: { type: 'array', items: project } } }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
    post: {
      operationId: 'adminCreateProject',
      summary: 'Create a project; an id that exists is refused',
      security,
      requestBody: body(strict({ id: tenantId, ...projectFields }, ['id', 'repository'])),
      responses: { '201': jsonResponse('The project', project), ...errorResponses(...AUTHENTICATED_POST_ERRORS), ...taken },
    },
  },
  '/v2/admin/projects/{projectId}': {
    get: {
      operationId: 'adminGetProject',
      summary: 'Read a project',
      security,
      parameters: [projectId],
      responses: { '200': jsonResponse('The project', project), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
    patch: {
      operationId: 'adminUpdateProject',
      summary: 'Change the fields named; the others keep their value (null removes `forgeTokenEnv`)',
      security,
      parameters: [projectId],
      requestBody: body(strict({ ...projectFields, forgeTokenEnv: nullable({ type: 'string' }) })),
      responses: { '200': jsonResponse('The project', project), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
    delete: {
      operationId: 'adminDeleteProject',
      summary: 'Delete a project; its jobs stay until the job retention removes them',
      security,
      parameters: [projectId],
      responses: { '204': noContent, ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/admin/domains': {
    get: {
      operationId: 'adminListDomains',
      summary: 'The organisation’s domains',
      security,
      responses: {
        '200': jsonResponse('The domains', { type: 'object', required: ['domains'], properties: { domains: { type: 'array', items: domain } } }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
    post: {
      operationId: 'adminCreateDomain',
      summary: 'Create a domain; an id that exists is refused',
      security,
      requestBody: body(strict({ id: tenantId, ...domainFields }, ['id', 'source', 'baseUrl'])),
      responses: { '201': jsonResponse('The domain', domain), ...errorResponses(...AUTHENTICATED_POST_ERRORS), ...taken },
    },
  },
  '/v2/admin/domains/{domainId}': {
    get: {
      operationId: 'adminGetDomain',
      summary: 'Read a domain',
      security,
      parameters: [domainId],
      responses: { '200': jsonResponse('The domain', domain), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
    patch: {
      operationId: 'adminUpdateDomain',
      summary: 'Change the fields named; the others keep their value (null removes `branch`, `supportContact`, `allowedOrigins`)',
      security,
      parameters: [domainId],
      requestBody: body(
        strict({
          ...domainFields,
          branch: nullable({ type: 'string', minLength: 1 }),
          supportContact: nullable({ type: 'string', minLength: 1 }),
          allowedOrigins: nullable({ type: 'array', items: webUrl }),
        }),
      ),
      responses: { '200': jsonResponse('The domain', domain), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
    delete: {
      operationId: 'adminDeleteDomain',
      summary: 'Delete a domain; its indexed pages and analytics stay until an index of the same id replaces them',
      security,
      parameters: [domainId],
      responses: { '204': noContent, ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/admin/domains/{domainId}/index': {
    post: {
      operationId: 'adminIndexDomain',
      summary: 'Start re-indexing the domain (a run in progress is joined)',
      security,
      parameters: [domainId],
      responses: { '202': jsonResponse('The indexing run', indexStatus), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
    get: {
      operationId: 'adminIndexStatus',
      summary: 'The latest indexing run: status and progress (404 when never indexed)',
      security,
      parameters: [domainId],
      responses: { '200': jsonResponse('The indexing run', indexStatus), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/admin/keys': {
    get: {
      operationId: 'adminListKeys',
      summary: 'The organisation’s keys, oldest first, revoked ones included; never a secret',
      security,
      responses: {
        '200': jsonResponse('The keys', { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: key } } }),
        ...errorResponses(...AUTHENTICATED_GET_ERRORS),
      },
    },
    post: {
      operationId: 'adminCreateKey',
      summary: 'Create a key; its secret is in this answer only',
      security,
      requestBody: body(strict({ kind: { enum: ['admin', 'assistant'] }, expiresAt: { ...when, description: 'In the future; absent: never expires.' } }, ['kind'])),
      responses: { '201': jsonResponse('The key and its secret', keyCreated), ...errorResponses(...AUTHENTICATED_POST_ERRORS) },
    },
  },
  '/v2/admin/keys/{keyId}': {
    delete: {
      operationId: 'adminRevokeKey',
      summary: 'Revoke a key: it no longer authenticates, and stays listed as revoked',
      security,
      parameters: [keyId],
      responses: { '204': noContent, ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
    },
  },
  '/v2/operator/orgs': {
    get: {
      operationId: 'operatorListOrgs',
      summary: 'Every organisation (operator token; 404 when `QUIRE_OPERATOR_TOKEN` is unset)',
      security: operatorSecurity,
      responses: {
        '200': jsonResponse('The organisations', { type: 'object', required: ['orgs'], properties: { orgs: { type: 'array', items: org } } }),
        ...errorResponses(401, 404, 500, 503),
      },
    },
    post: {
      operationId: 'operatorPutOrg',
      summary: 'Create an organisation, or set the limits of one that exists (operator token)',
      security: operatorSecurity,
      requestBody: body(strict({ id: tenantId, limits }, ['id'])),
      responses: {
        '201': jsonResponse('The organisation, created', org),
        '200': jsonResponse('The organisation, its limits set', org),
        ...errorResponses(400, 401, 404, 413, 415, 500, 503),
      },
    },
  },
};
