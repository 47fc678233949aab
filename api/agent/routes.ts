import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import {
  InvalidCursorError,
  newJobRecord,
  openJobStore,
  toJobView,
  workflowIdOf,
  type JobRecord,
} from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { agentJobWorkflow, archiveUpdate, firstRunInput, JOB_ARCHIVED, sendMessageUpdate } from '../../workflows/agent-job.js';
import { authOf, requireKey } from '../auth.js';
import { jobStartOptions } from './job-start.js';
import { setRateLimitHeaders } from '../error-middleware.js';
import { badRequest, conflict, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { consumeAgentLimit } from './agent-limits.js';
import { readJob } from './job-reader.js';
import { chooseModel } from './choose-model.js';
import { CreateJobBody, IDEMPOTENCY_KEY, ListJobsQuery, MessageBody } from './schemas.js';

/** An update waits for a worker; without one the client gets 503 instead of hanging. */
const UPDATE_DEADLINE_MS = 15_000;
/** Margin over the agent's own time budget before Temporal times a turn out. */
const TURN_TIMEOUT_MARGIN_SECONDS = 120;

/** The agent job endpoints of API.md: create, get, follow-up message, list, archive. */
export function agentRouter(services: ApiServices): Router {
  const store = openJobStore(services.config.dataDir, services.redis);
  /** New jobs' records being written after their create has answered. */
  const recording = new Set<Promise<void>>();
  const router = new Router({ prefix: '/v2/agent/:projectId' });
  router.use(requireKey(services.tenants, 'admin'));

  const projectOf = async (ctx: Context): Promise<Project> => {
    const project = await services.tenants.getProject(String(ctx.params.projectId));
    if (!project || project.orgId !== authOf(ctx).orgId) throw notFound('project');
    return project;
  };
  /** The project and its organisation's limit overrides, read together (the create path is latency-bound). */
  const projectAndLimits = async (ctx: Context) => {
    const [project, org] = await Promise.all([projectOf(ctx), services.tenants.getOrg(authOf(ctx).orgId)]);
    return { project, limits: org?.limits };
  };
  const jobOf = async (ctx: Context, project: Project) => {
    const found = await readJob(services, store, project.id, String(ctx.params.id));
    if (!found) throw notFound('job');
    return found;
  };
  const update = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await services.temporal.withDeadline(Date.now() + UPDATE_DEADLINE_MS, fn);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === JOB_ARCHIVED) {
        throw conflict('the job is archived; start a new job');
      }
      if (err instanceof WorkflowNotFoundError) throw conflict('the job has ended; start a new job');
      throw err;
    }
  };

  router.post('/job', async (ctx) => {
    const { project, limits } = await projectAndLimits(ctx);
    const body = parseInput(CreateJobBody, ctx.request.body);
    const model = chooseModel(project, services.config, body.model);
    setRateLimitHeaders(ctx, await consumeAgentLimit(services, limits, project.id, 'create'));
    const job = newJobRecord({ projectId: project.id, repository: project.repository, ref: project.branch, model });
    const input = firstRunInput(job, { id: randomUUID(), prompt: body.prompt }, {
      draft: body.asDraft ?? false,
      idleArchiveDays: services.config.retention.jobIdleArchiveDays,
      turnTimeoutSeconds: services.config.agent.maxSeconds + TURN_TIMEOUT_MARGIN_SECONDS,
      heartbeatSeconds: services.config.agent.heartbeatSeconds,
    });
    await services.temporal.workflow.start(agentJobWorkflow, jobStartOptions(input, services.config.temporal.taskQueue));
    // Off the response path: the workflow's first state record rewrites this durably anyway,
    // so a create answers in about the time of a bare workflow start. The list waits for it.
    const recorded: Promise<void> = store
      .create(job)
      .catch((err: unknown) => {
        services.logger.warn({ jobId: job.id, err: String(err) }, 'could not record the new job; its first turn will');
      })
      .finally(() => recording.delete(recorded));
    recording.add(recorded);
    ctx.status = 201;
    ctx.body = toJobView(job);
  });

  router.get('/job/:id', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = toJobView((await jobOf(ctx, project)).record);
  });

  router.post('/job/:id/message', async (ctx) => {
    const { project, limits } = await projectAndLimits(ctx);
    const found = await jobOf(ctx, project);
    const body = parseInput(MessageBody, ctx.request.body);
    if (found.record.status === 'archived') throw conflict('the job is archived; start a new job');
    if (!found.open) throw conflict('the job has ended; start a new job');
    setRateLimitHeaders(ctx, await consumeAgentLimit(services, limits, project.id, 'message'));
    const key = ctx.get('Idempotency-Key');
    const messageId = IDEMPOTENCY_KEY.test(key) ? `key:${key}` : randomUUID();
    const handle = services.temporal.workflow.getHandle(workflowIdOf(found.record.id));
    const record = await update(() =>
      handle.executeUpdate(sendMessageUpdate, { args: [{ id: messageId, prompt: body.prompt }], updateId: messageId }),
    );
    ctx.body = toJobView(await store.put(record));
  });

  router.post('/job/:id/archive', async (ctx) => {
    const project = await projectOf(ctx);
    const found = await jobOf(ctx, project);
    if (found.record.status === 'archived') {
      ctx.body = toJobView(found.record);
      return;
    }
    if (!found.open) {
      // The workflow is gone (retention, or stopped by an operator): archive the stored record.
      const now = new Date().toISOString();
      const archived: JobRecord = { ...found.record, status: 'archived', archivedAt: now, updatedAt: now, revision: found.record.revision + 1 };
      ctx.body = toJobView(await store.put(archived));
      return;
    }
    const handle = services.temporal.workflow.getHandle(workflowIdOf(found.record.id));
    const record = await update(() => handle.executeUpdate(archiveUpdate));
    ctx.body = toJobView(await store.put(record));
  });

  router.get('/jobs', async (ctx) => {
    const project = await projectOf(ctx);
    const query = parseInput(ListJobsQuery, ctx.query, 'query');
    // A job this process has just created is listed, even if its record is still being written.
    await Promise.all(recording);
    try {
      const page = await store.list(project.id, {
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      ctx.body = { jobs: page.jobs.map(toJobView), nextCursor: page.nextCursor };
    } catch (err) {
      if (err instanceof InvalidCursorError) throw badRequest(err.message, [{ path: 'cursor', message: err.message }]);
      throw err;
    }
  });

  return router;
}
