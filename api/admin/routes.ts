import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Client } from '@temporalio/client';
import { deleteDomainAndIndex, deleteProjectAndJobs } from '../../core/deletion/index.js';
import { pollBackoff, reindexOnLanguageChange, syncDomainPollSchedule } from '../../core/index-runs/index.js';
import {
  createDomain,
  createOrgKey,
  createProject,
  DOMAIN_LANGUAGES,
  getOrgDomain,
  getOrgProject,
  listOrgDomains,
  listOrgKeys,
  listOrgProjects,
  revokeOrgKey,
  TenantConflictError,
  TenantExistsError,
  TenantInputError,
  UnknownTenantError,
  updateDomain,
  updateProject,
  type Domain,
} from '../../core/tenants/index.js';
import { authOf, requireKey } from '../auth.js';
import { readIndexRun, startIndexRun } from '../index-run.js';
import { badRequest, conflict, HttpError, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { DomainCreateBody, DomainPatchBody, KeyCreateBody, ProjectCreateBody, ProjectPatchBody, ReaderErasureBody, type IndexStatusOut } from './schemas.js';

/** How long a status read waits for a running workflow's progress query before answering without it. */

/**
 * The tenant rules' errors as HTTP answers: unknown (or another organisation's) 404, a taken id 409
 * `id_taken` (one answer whoever holds it: ids are global), another conflict 409, a broken rule 400.
 */
export async function tenantErrors(_ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (err instanceof UnknownTenantError) throw notFound(`${err.kind} '${err.id}'`);
    if (err instanceof TenantInputError) throw badRequest(`invalid body: ${err.message}`, [{ path: err.field, message: err.reason }]);
    if (err instanceof TenantExistsError) throw new HttpError(409, 'id_taken', err.message);
    if (err instanceof TenantConflictError) throw conflict(err.message);
    throw err;
  }
}

/**
 * The domain's latest index run as the admin API answers it. For a polled domain whose latest run a
 * poll started for a head that failed to index, also the backoff: polls leave that head until `retryAt`.
 */
async function indexStatus(temporal: Client, domain: Pick<Domain, 'id' | 'pollMinutes'>): Promise<IndexStatusOut> {
  const domainId = domain.id;
  const run = await readIndexRun(temporal, domainId);
  const backoff = domain.pollMinutes && run.polled && (run.status === 'failed' || run.status === 'timed_out') ? pollBackoff(run.polled, run.startedAt, domain.pollMinutes) : undefined;
  return {
    domainId,
    workflowId: run.workflowId,
    runId: run.runId,
    status: (['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new'] as const).find((s) => s === run.status) ?? 'unknown',
    startedAt: run.startedAt.toISOString(),
    closedAt: run.closedAt?.toISOString() ?? null,
    progress: run.progress,
    // A finished run's result says what it indexed: the commit and the page count.
    commit: run.result?.commit ?? null,
    pages: run.result?.pages ?? null,
    error: run.error ?? null,
    errorCode: run.errorCode ?? null,
    pollBackoff: backoff ? { head: backoff.head, failures: backoff.failures, retryAt: backoff.retryAt.toISOString() } : null,
  };
}

/**
 * What the admin routes use: keys and projects, Temporal to start indexing, the jobs and automations
 * a project's delete stops, the index a domain's delete drops, and the threads a reader's erasure deletes.
 */
export type AdminRouterDeps = Pick<ApiServices, 'tenants' | 'temporal' | 'config' | 'automations' | 'jobs' | 'docIndex' | 'threads' | 'webhooks'>;

/**
 * The admin API of README's "Admin API": an organisation's projects, domains and keys, with its
 * admin key. Handlers stay thin; core/tenants/admin.ts holds the rules, as it does for the CLI.
 */
export function adminRouter(services: AdminRouterDeps): Router {
  const { tenants } = services;
  const router = new Router({ prefix: '/v2/admin' });
  router.use(requireKey(tenants, 'admin'), tenantErrors);
  const org = (ctx: Context) => authOf(ctx).orgId;
  // An organisation's admin names paths on this machine only under the operator's folders, and private hosts only where the operator allows them.
  const locations = {
    localPaths: services.config.adminLocalPaths,
    allowPrivateTargets: services.config.allowPrivateTargets,
    orgScopedVariables: services.config.orgScopedVariables,
  };

  router.get('/projects', async (ctx) => {
    ctx.body = { projects: await listOrgProjects(tenants, org(ctx)) };
  });
  router.post('/projects', async (ctx) => {
    const body = parseInput(ProjectCreateBody, ctx.request.body);
    ctx.body = await createProject(tenants, { ...body, orgId: org(ctx) }, locations);
    ctx.status = 201;
  });
  router.get('/projects/:projectId', async (ctx) => {
    ctx.body = await getOrgProject(tenants, org(ctx), ctx.params.projectId!);
  });
  router.patch('/projects/:projectId', async (ctx) => {
    const patch = parseInput(ProjectPatchBody, ctx.request.body);
    ctx.body = await updateProject(tenants, org(ctx), ctx.params.projectId!, patch, locations);
  });
  router.delete('/projects/:projectId', async (ctx) => {
    // Its schedules and active jobs first: with Temporal down this fails (503) before its rows are deleted, and a retry finishes it.
    await deleteProjectAndJobs(services, org(ctx), ctx.params.projectId!);
    ctx.status = 204;
  });

  router.get('/domains', async (ctx) => {
    ctx.body = { domains: await listOrgDomains(tenants, org(ctx)) };
  });
  router.post('/domains', async (ctx) => {
    const body = parseInput(DomainCreateBody, ctx.request.body);
    const domain = await createDomain(tenants, { ...body, orgId: org(ctx) }, locations);
    // The record first, then its poll schedule: with Temporal down this is a 503, and a PATCH of the same pollMinutes finishes it.
    if (domain.pollMinutes) await syncDomainPollSchedule(services.temporal, services.config.temporal.taskQueue, domain);
    ctx.body = domain;
    ctx.status = 201;
  });
  router.get('/domains/:domainId', async (ctx) => {
    ctx.body = await getOrgDomain(tenants, org(ctx), ctx.params.domainId!);
  });
  router.patch('/domains/:domainId', async (ctx) => {
    const patch = parseInput(DomainPatchBody, ctx.request.body);
    const before = patch.language !== undefined ? await getOrgDomain(tenants, org(ctx), ctx.params.domainId!) : undefined;
    const domain = await updateDomain(tenants, org(ctx), ctx.params.domainId!, patch, locations);
    // Only a change of polling touches its schedule (created, changed or deleted); repeating it after a 503 finishes it.
    if (patch.pollMinutes !== undefined) await syncDomainPollSchedule(services.temporal, services.config.temporal.taskQueue, domain);
    if (before) {
      const restore = (language: string | undefined) => updateDomain(tenants, org(ctx), domain.id, { language: language ?? null }, locations);
      await reindexOnLanguageChange({ temporal: services.temporal, taskQueue: services.config.temporal.taskQueue, restore }, domain.id, before, domain);
    }
    ctx.body = domain;
  });
  router.delete('/domains/:domainId', async (ctx) => {
    // The record, then its index run, index and checkout: with Temporal or Qdrant down this fails (503) and a retry finishes it.
    await deleteDomainAndIndex(services, org(ctx), ctx.params.domainId!);
    ctx.status = 204;
  });
  // A reader's request to have what they asked removed: admin only, as an assistant key is public.
  router.post('/domains/:domainId/reader-erasure', async (ctx) => {
    const domain = await getOrgDomain(tenants, org(ctx), ctx.params.domainId!);
    const { fp } = parseInput(ReaderErasureBody, ctx.request.body);
    ctx.body = await services.threads.eraseReader({ orgId: domain.orgId, domainId: domain.id, fp });
  });
  router.post('/domains/:domainId/index', async (ctx) => {
    const domain = await getOrgDomain(tenants, org(ctx), ctx.params.domainId!);
    await startIndexRun(services.temporal, services.config.temporal.taskQueue, domain.id);
    ctx.body = await indexStatus(services.temporal, domain);
    ctx.status = 202;
  });
  router.get('/domains/:domainId/index', async (ctx) => {
    const domain = await getOrgDomain(tenants, org(ctx), ctx.params.domainId!);
    ctx.body = await indexStatus(services.temporal, domain);
  });

  router.get('/languages', (ctx) => {
    ctx.body = { languages: DOMAIN_LANGUAGES };
  });

  router.get('/keys', async (ctx) => {
    ctx.body = { keys: await listOrgKeys(tenants, org(ctx)) };
  });
  router.post('/keys', async (ctx) => {
    const body = parseInput(KeyCreateBody, ctx.request.body);
    ctx.body = await createOrgKey(tenants, org(ctx), body.kind, body.expiresAt);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
  });
  router.delete('/keys/:keyId', async (ctx) => {
    await revokeOrgKey(tenants, org(ctx), ctx.params.keyId!);
    ctx.status = 204;
  });

  return router;
}
