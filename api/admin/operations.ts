import * as v from 'valibot';
import { IndexProgressSchema } from '../../core/contracts/index-progress-schema.js';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, ERROR_CONTENT } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec, ResponseSpec } from '../openapi/operation.js';
import {
  DomainCreateBody,
  DomainLanguages,
  DomainPatchBody,
  DomainView,
  IndexStatus,
  KeyCreateBody,
  KeyCreated,
  KeyView,
  Limits,
  OrgCreateBody,
  OrgDeleted,
  OrgView,
  ProjectCreateBody,
  ProjectPatchBody,
  ProjectView,
  ReaderErased,
  ReaderErasureBody,
} from './schemas.js';

const security = 'admin';
const segment = (description: string) => v.pipe(v.string(), v.minLength(1), v.description(description));
const ProjectParams = v.object({ projectId: segment('A project of the key’s organisation.') });
const DomainParams = v.object({ domainId: segment('A domain of the key’s organisation.') });
const KeyParams = v.object({ keyId: segment('A key of the organisation (`key_…`).') });
const OrgParams = v.object({ orgId: segment('An organisation.') });
const noContent: ResponseSpec = { description: 'Done.' };
const taken: ResponseSpec = {
  description:
    'The id is taken (`id_taken`, one message whatever the reason): ids are global across organisations, so this is a project or domain of this ' +
    "organisation or another, or another organisation's deleted one (its id stays theirs). The organisation's own deleted id is not taken: it may create it again.",
  content: ERROR_CONTENT,
};

/**
 * The shapes the admin and operator operations share, named in the document (`#/components/schemas/…`);
 * an index run's progress is the search feature's run status's too (`GET /v1/admin/domains/{domain}/index`).
 */
export const adminSchemas: NamedSchemas = { Project: ProjectView, Domain: DomainView, IndexRun: IndexStatus, IndexProgress: IndexProgressSchema, Org: OrgView, OrgLimits: Limits };

/** The admin API (routes.ts) and the operator's organisations (operator.ts), from the schemas the routes validate and answer with. */
export const adminOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/v2/admin/projects',
    operationId: 'adminListProjects',
    summary: 'The organisation’s projects',
    security,
    responses: { 200: { description: 'The projects', body: v.object({ projects: v.array(ProjectView) }) } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/admin/projects',
    operationId: 'adminCreateProject',
    summary: 'Create a project; an id that exists is refused',
    security,
    body: ProjectCreateBody,
    responses: { 201: { description: 'The project', body: ProjectView }, 409: taken },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/projects/{projectId}',
    operationId: 'adminGetProject',
    summary: 'Read a project',
    security,
    params: { path: ProjectParams },
    responses: { 200: { description: 'The project', body: ProjectView } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'patch',
    path: '/v2/admin/projects/{projectId}',
    operationId: 'adminUpdateProject',
    summary: 'Change the fields named; the others keep their value (null removes `forgeTokenEnv`)',
    security,
    params: { path: ProjectParams },
    body: ProjectPatchBody,
    responses: { 200: { description: 'The project', body: ProjectView } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'delete',
    path: '/v2/admin/projects/{projectId}',
    operationId: 'adminDeleteProject',
    summary: 'Delete a project with its jobs, webhooks, automations and pull requests; its running jobs are stopped first',
    description:
      "Marks the project as being deleted (a job create for it, or a follow-up message to one of its jobs, answers `409` from then on, `404` once it is gone), deletes its automations' Temporal schedules and archives each of its active jobs through its workflow (the turn stops and the job is recorded archived) and deletes every run of each of its jobs' workflows from Temporal (history and visibility record; Temporal removes them shortly after accepting the deletes), and every run of its webhooks' delivery workflows and of its automations' firings, then, in one transaction with its record, its jobs with their messages and events, its webhooks and their delivery log, its automations and the local forge's pull requests. A job active again by then (a follow-up to a finished one) is archived, its runs deleted, and the transaction tried again. Created again with the same id, the project starts empty. When Temporal cannot be reached nothing is deleted from the database, the answer is `503` with `Retry-After`, the project stays marked, and the same `DELETE`, repeated, finishes it.",
    security,
    params: { path: ProjectParams },
    responses: {
      204: noContent,
      503: {
        description: 'Not deleted yet (`unavailable`): Temporal could not delete its schedules, stop its jobs or delete their runs, or its jobs kept becoming active again. Repeat the request after `Retry-After` to finish.',
        content: ERROR_CONTENT,
        headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      },
    },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/domains',
    operationId: 'adminListDomains',
    summary: 'The organisation’s domains',
    security,
    responses: { 200: { description: 'The domains', body: v.object({ domains: v.array(DomainView) }) } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/admin/domains',
    operationId: 'adminCreateDomain',
    summary: 'Create a domain; an id that exists is refused',
    security,
    body: DomainCreateBody,
    responses: { 201: { description: 'The domain', body: DomainView }, 409: taken },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/domains/{domainId}',
    operationId: 'adminGetDomain',
    summary: 'Read a domain',
    security,
    params: { path: DomainParams },
    responses: { 200: { description: 'The domain', body: DomainView } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'patch',
    path: '/v2/admin/domains/{domainId}',
    operationId: 'adminUpdateDomain',
    summary: 'Change the fields named; the others keep their value (null removes `branch`, `supportContact`, `allowedOrigins`, `pushSecretEnv`, `pollMinutes`, `language`)',
    description:
      'A change of `language` starts re-indexing the domain, as `POST /v2/admin/domains/{domainId}/index` does (a run in progress is joined), since its pages keep the stems of the language they were indexed in. With Temporal out of reach the language is put back (the rest of the patch is kept) and the answer is `503`: repeat the change once Temporal is back.',
    security,
    params: { path: DomainParams },
    body: DomainPatchBody,
    responses: { 200: { description: 'The domain', body: DomainView } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'delete',
    path: '/v2/admin/domains/{domainId}',
    operationId: 'adminDeleteDomain',
    summary: 'Delete a domain and its index (its pages, its checkout, its index and poll runs in Temporal); its analytics and threads stay until their retention',
    description:
      "Removes the domain's record, stops its index run in Temporal and deletes every index and poll run of it there (history and visibility record), deletes its index (the embedded files, or its points in Qdrant) and its checkout, and every API process and the worker forget what they keep of it in memory. Created again with the same id, the domain starts empty. When Temporal or Qdrant cannot be reached the record is gone already, the answer is `503` with `Retry-After`, the id cannot be created again (`409`) and the same `DELETE`, repeated, finishes it.",
    security,
    params: { path: DomainParams },
    responses: {
      204: noContent,
      503: {
        description: 'Partly deleted (`unavailable`): the record is gone, its index is not yet. Repeat the request after `Retry-After` to finish.',
        content: ERROR_CONTENT,
        headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      },
    },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/admin/domains/{domainId}/index',
    operationId: 'adminIndexDomain',
    summary: 'Start re-indexing the domain (a run in progress is joined, and indexes again what changed since it began)',
    security,
    params: { path: DomainParams },
    responses: { 202: { description: 'The indexing run', body: IndexStatus } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/admin/domains/{domainId}/reader-erasure',
    operationId: 'adminEraseReader',
    summary: 'Erase what one reader left on the domain, by the fingerprint their client sent: their threads, answers and ratings',
    description:
      "A reader's request to have everything they asked removed, when they no longer hold their threads' keys. In one transaction, after the answers this API process still holds are written: the domain's threads any of whose exchanges carries the fingerprint, with all their exchanges; the answer records carrying it or belonging to those threads; and those threads' ratings. The daily counts, which name no one, stay. Admin key only: an assistant key is public, so a reader's client cannot do this (a reader erases one thread with its key, `DELETE /discovery/v1/assistant/{domain}/threads/{threadId}`). Another organisation's domain answers 404, as an unknown one.",
    security,
    params: { path: DomainParams },
    body: ReaderErasureBody,
    responses: { 200: { description: 'What was deleted (zeros when the fingerprint left nothing)', body: ReaderErased } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/domains/{domainId}/index',
    operationId: 'adminIndexStatus',
    summary: 'The latest indexing run: status and progress (404 when never indexed)',
    security,
    params: { path: DomainParams },
    responses: { 200: { description: 'The indexing run', body: IndexStatus } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/languages',
    operationId: 'adminListLanguages',
    summary: 'The languages a domain’s `language` may be in (those Quire stems, and English)',
    security,
    responses: { 200: { description: 'The languages', body: DomainLanguages } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/admin/keys',
    operationId: 'adminListKeys',
    summary: 'The organisation’s keys, oldest first, revoked ones included; never a secret',
    security,
    responses: { 200: { description: 'The keys', body: v.object({ keys: v.array(KeyView) }) } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/admin/keys',
    operationId: 'adminCreateKey',
    summary: 'Create a key; its secret is in this answer only',
    security,
    body: KeyCreateBody,
    responses: { 201: { description: 'The key and its secret', body: KeyCreated } },
    errors: AUTHENTICATED_POST_ERRORS,
  },
  {
    method: 'delete',
    path: '/v2/admin/keys/{keyId}',
    operationId: 'adminRevokeKey',
    summary: 'Revoke a key: it no longer authenticates, and stays listed as revoked',
    security,
    params: { path: KeyParams },
    responses: {
      204: noContent,
      409: { description: "The organisation's last admin key in force (`conflict`): create another admin key first, so nobody is locked out.", content: ERROR_CONTENT },
    },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  {
    method: 'get',
    path: '/v2/operator/orgs',
    operationId: 'operatorListOrgs',
    summary: 'Every organisation (operator token; 404 when `QUIRE_OPERATOR_TOKEN` is unset)',
    security: 'operator',
    responses: { 200: { description: 'The organisations', body: v.object({ orgs: v.array(OrgView) }) } },
    errors: [401, 404, 500, 503],
  },
  {
    method: 'post',
    path: '/v2/operator/orgs',
    operationId: 'operatorPutOrg',
    summary: 'Create an organisation, or set the limits of one that exists (operator token)',
    security: 'operator',
    body: OrgCreateBody,
    responses: { 201: { description: 'The organisation, created', body: OrgView }, 200: { description: 'The organisation, its limits set', body: OrgView } },
    errors: [400, 401, 404, 413, 415, 500, 503],
  },
  {
    method: 'delete',
    path: '/v2/operator/orgs/{orgId}',
    operationId: 'operatorDeleteOrg',
    summary: 'Delete an organisation: its keys and console sessions at once, then its domains (with their indexes) and projects as their own deletes do; its id is retired (operator token)',
    security: 'operator',
    params: { path: OrgParams },
    responses: {
      200: { description: 'Deleted; what this request revoked, ended and deleted', body: OrgDeleted },
      503: {
        description:
          'Partly deleted (`unavailable`): its keys are revoked and its sessions ended, and the message names the projects or domains left (Temporal down while their schedules were deleted, their jobs or index runs stopped or their runs deleted, Qdrant down while their points were deleted). Repeat the request after `Retry-After` to finish.',
        content: ERROR_CONTENT,
        headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      },
    },
    errors: [401, 404, 500],
  },
];
