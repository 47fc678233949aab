import Router from '@koa/router';
import type { Context } from 'koa';
import { isGrpcServiceError } from '@temporalio/client';
import {
  automationInputSchema,
  automationJobId,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  setAutomationPaused,
  startAutomationJob,
  type AutomationDeps,
  type AutomationView,
} from '../../core/automations/index.js';
import { AUTOMATION_SKIP } from '../../core/contracts/index.js';
import { toJobView } from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { allowedModel, requireModel } from '../agent/choose-model.js';
import { authOf, requireKey } from '../auth.js';
import { setRateLimitHeaders } from '../error-middleware.js';
import { badRequest, conflict, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { PauseBody } from './schema.js';

/** gRPC INVALID_ARGUMENT: the engine refused the schedule's spec (a cron our check let through). */
const GRPC_INVALID_ARGUMENT = 3;


/** What the automation routes use. */
export type AutomationsRouterDeps = Pick<ApiServices, 'tenants' | 'automations' | 'jobs' | 'temporal' | 'limiter' | 'config'>;

/**
 * Automations of API.md: recurring agent jobs on Temporal Schedules, managed with the admin key
 * for the organisation's own projects. Handlers stay thin; core/automations does the work, as it
 * does for the CLI and the worker.
 */
export function automationsRouter(services: AutomationsRouterDeps): Router {
  const deps: AutomationDeps = {
    temporal: services.temporal,
    automations: services.automations,
    jobs: services.jobs,
    tenants: services.tenants,
    limiter: services.limiter,
    config: services.config,
  };
  const InputBody = automationInputSchema(services.config.automations.minIntervalSeconds);
  const router = new Router({ prefix: '/v2/agent/:projectId/automations' });
  router.use(requireKey(services.tenants, 'admin'));

  const projectOf = async (ctx: Context): Promise<Project> => {
    const project = await services.tenants.getProject(String(ctx.params.projectId));
    if (!project || project.orgId !== authOf(ctx).orgId) throw notFound('project');
    return project;
  };
  const found = (view: AutomationView | undefined): AutomationView => {
    if (!view) throw notFound('automation');
    return view;
  };
  const setPaused = async (ctx: Context, paused: boolean) => {
    const project = await projectOf(ctx);
    const body = parseInput(PauseBody, ctx.request.body);
    ctx.body = found(await setAutomationPaused(deps, project.id, String(ctx.params.automationId), paused, body.note));
  };

  router.post('/', async (ctx) => {
    const project = await projectOf(ctx);
    const input = parseInput(InputBody, ctx.request.body);
    // The model is checked now, against the project's rules; a firing checks again (they may change).
    if (input.model !== undefined) allowedModel(project, services.config, input.model);
    try {
      ctx.body = await createAutomation(deps, project.id, input);
    } catch (err) {
      if (isGrpcServiceError(err) && err.code === GRPC_INVALID_ARGUMENT) {
        const message = `the workflow engine refused the schedule: ${err.details}`;
        throw badRequest(`invalid body: ${input.cron !== undefined ? 'cron' : 'interval'}: ${message}`, [
          { path: input.cron !== undefined ? 'cron' : 'interval', message },
        ]);
      }
      throw err;
    }
    ctx.status = 201;
  });

  router.get('/', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = { automations: await listAutomations(deps, project.id) };
  });

  router.get('/:automationId', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = found(await getAutomation(deps, project.id, String(ctx.params.automationId)));
  });

  router.delete('/:automationId', async (ctx) => {
    const project = await projectOf(ctx);
    if (!(await deleteAutomation(deps, project.id, String(ctx.params.automationId)))) throw notFound('automation');
    ctx.status = 204;
  });

  router.post('/:automationId/pause', (ctx) => setPaused(ctx, true));
  router.post('/:automationId/resume', (ctx) => setPaused(ctx, false));

  router.post('/:automationId/trigger', async (ctx) => {
    const project = await projectOf(ctx);
    const automationId = String(ctx.params.automationId);
    const stored = await deps.automations.get(project.id, automationId);
    if (!stored) throw notFound('automation');
    requireModel(services.config);
    // The same start path as a firing, run here so the answer carries the job's id. The job's id
    // follows from the run before it: triggers at once (a double click, two replicas) start one job.
    const jobId = automationJobId(`trigger:${automationId}:${stored.lastRun?.jobId ?? 'none'}`);
    const start = await startAutomationJob(deps, { projectId: project.id, automationId }, { jobId });
    if (start.kind === 'skipped') {
      if (start.rateLimited) throw start.rateLimited;
      // As a job create answers: 409 while the project is being deleted, 404 once it is gone.
      if (start.closedProject) throw start.closedProject;
      if (start.code === AUTOMATION_SKIP.notFound) throw notFound('automation');
      throw conflict(start.reason);
    }
    if (start.limit) setRateLimitHeaders(ctx, start.limit);
    ctx.status = 202;
    ctx.body = { jobId: start.job.id, job: toJobView(start.job) };
  });

  return router;
}
