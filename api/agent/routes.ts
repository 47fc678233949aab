import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { ApplicationFailure, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { JOB_ARCHIVED } from '../../core/contracts/index.js';
import { UnavailableError } from '../../core/errors.js';
import { archiveJobRun, InvalidCursorError, jobIdForKey, neverStarted, sendJobMessage, toJobView } from '../../core/jobs/index.js';
import { authOf, requireKey } from '../auth.js';
import { createJob } from './create-job.js';
import { badRequest, conflict, HttpError } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { spendAgentLimit } from './agent-limits.js';
import { agentAccess } from './project-access.js';
import { readJob } from './job-reader.js';
import { lastEventIdOf, streamJobEvents } from './job-event-stream.js';
import { chooseModel } from './choose-model.js';
import { CreateJobBody, DeliveriesQuery, IDEMPOTENCY_KEY, ListJobsQuery, MessageBody } from './schemas.js';

/** An update (with start) waits for a worker; without one the client gets 503 instead of hanging. */
const UPDATE_DEADLINE_MS = 15_000;

/** A follow-up no worker took within UPDATE_DEADLINE_MS: it waits in Temporal, and may still run. */
const UNTAKEN_MESSAGE =
  'no worker took the message in time; Temporal keeps it and it may still run when a worker comes: retry with the same Idempotency-Key header so it runs once';

/** An archive not done within UPDATE_DEADLINE_MS: its turn has not stopped yet, or no worker took it. */
const UNFINISHED_ARCHIVE =
  "the archive is under way but the job's turn has not stopped yet (or no worker has taken it): archive again shortly; archiving twice is harmless";

/**
 * An Idempotency-Key names one request: used again with another prompt it is refused, rather
 * than answered with the first request's job as if the new prompt had been taken.
 */
async function requireSamePrompt(store: AgentRouterDeps['jobs'], job: { projectId: string; id: string }, messageId: string, prompt: string): Promise<void> {
  const [kept] = await store.getMessages(job.projectId, job.id, [messageId]);
  if (kept && kept.prompt !== prompt) throw new HttpError(422, 'idempotency_key_reused', 'this Idempotency-Key was used with another prompt; use a new key for a new request');
}

/** What the agent job routes use. */
export type AgentRouterDeps = Pick<ApiServices, 'tenants' | 'jobs' | 'events' | 'webhooks' | 'temporal' | 'limiter' | 'config' | 'logger'>;

/** The agent job endpoints of API.md: create, get, follow-up message, list, archive. */
export function agentRouter(services: AgentRouterDeps): Router {
  const store = services.jobs;
  const events = services.events;
  const { webhooks } = services;
  const router = new Router({ prefix: '/v2/agent/:projectId' });
  router.use(requireKey(services.tenants, 'admin'));

  const { projectOf, projectAndLimits, jobOf } = agentAccess(services, store);
  const update = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await services.temporal.withDeadline(Date.now() + UPDATE_DEADLINE_MS, fn);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === JOB_ARCHIVED) {
        throw conflict('the job is archived; start a new job');
      }
      throw err;
    }
  };

  router.post('/job', async (ctx) => {
    const { project, limits } = await projectAndLimits(ctx);
    const body = parseInput(CreateJobBody, ctx.request.body);
    const model = chooseModel(project, services.config, body.model);
    const key = ctx.get('Idempotency-Key');
    const jobId = IDEMPOTENCY_KEY.test(key) ? jobIdForKey(project.id, key) : undefined;
    const made = jobId ? await store.get(project.id, jobId) : undefined;
    // A first attempt that wrote the job and then could not reach Temporal left its start to this retry.
    const unstarted = made !== undefined && (await neverStarted(services.temporal, made));
    if (made && !unstarted) {
      // A retried create: the job the key made, as it is now; no limit spent, nothing started again.
      await requireSamePrompt(store, made, `first:${made.id}`, body.prompt);
      ctx.status = 201;
      ctx.body = toJobView(made);
      return;
    }
    // A create refused from here on (its project being deleted, Temporal down, …) gives its unit back.
    // Two creates with one key at once: the one whose record was written first made the job, and
    // spends; the other is answered with that job, as a retry is, and gives its unit back.
    const { job } = await spendAgentLimit(
      ctx,
      services,
      { limits, projectId: project.id, kind: 'create' },
      async () => {
        const created = await createJob(
          { temporal: services.temporal, store, config: services.config },
          { projectId: project.id, repository: project.repository, ref: project.branch, model, prompt: body.prompt, draft: body.asDraft ?? false, ...(jobId ? { jobId } : {}) },
        );
        if (jobId) await requireSamePrompt(store, created.job, `first:${created.job.id}`, body.prompt);
        return created;
      },
      // The retry that starts a job its first attempt could not spends, as that attempt gave its unit back.
      (created) => created.made || unstarted,
    );
    ctx.status = 201;
    ctx.body = toJobView(job);
  });

  // Every line a job route logs names the job (telemetry-middleware reads it).
  router.param('id', (id, ctx, next) => {
    ctx.state.jobId = id;
    return next();
  });

  router.get('/job/:id', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = toJobView((await jobOf(ctx, project)).record);
  });

  router.get('/job/:id/events', async (ctx) => {
    const project = await projectOf(ctx);
    const jobId = (await jobOf(ctx, project)).record.id;
    const lastEventId = lastEventIdOf(ctx);
    streamJobEvents(
      ctx,
      { events, status: async () => (await readJob(store, project.id, jobId))?.record.status, inForce: authOf(ctx).inForce },
      { jobId, lastEventId, stallTimeoutMs: services.config.http.streamStallTimeoutMs, logger: services.logger },
    );
  });

  router.post('/job/:id/message', async (ctx) => {
    const { project, limits } = await projectAndLimits(ctx);
    const found = await jobOf(ctx, project);
    const body = parseInput(MessageBody, ctx.request.body);
    if (!found.open) throw conflict('the job is archived; start a new job');
    const key = ctx.get('Idempotency-Key');
    const message = { id: IDEMPOTENCY_KEY.test(key) ? `key:${key}` : randomUUID(), prompt: body.prompt };
    // A message refused from here on (its project being deleted, the job archived meanwhile, no
    // worker in time, …) gives its unit back; the retry the 503 asks for spends it.
    const record = await spendAgentLimit(ctx, services, { limits, projectId: project.id, kind: 'message' }, async () => {
      // The prompt stays out of workflow history: the database keeps it, the update carries its id.
      await store.putMessage(project.id, found.record.id, message);
      if (message.id.startsWith('key:')) await requireSamePrompt(store, found.record, message.id, body.prompt);
      // The open run takes it behind its turn, or the job's next run starts for it (a failed job resumes).
      return update(() => sendJobMessage(services, found.record, message)).catch((err: unknown) => {
        // Temporal keeps the message for the worker to come; the client must know a retry could run it twice.
        if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw new UnavailableError('workflow engine', UNTAKEN_MESSAGE, { cause: err });
        throw err;
      });
    });
    ctx.body = toJobView(record);
  });

  router.post('/job/:id/archive', async (ctx) => {
    const project = await projectOf(ctx);
    const found = await jobOf(ctx, project);
    const record = found.open
      ? await update(() => archiveJobRun(services, found.record)).catch((err: unknown) => {
          // The archive waits for the turn to stop; a worker that is gone or busy is not the only reason it may be late.
          if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw new UnavailableError('workflow engine', UNFINISHED_ARCHIVE, { cause: err });
          throw err;
        })
      : found.record;
    ctx.body = toJobView(record);
  });

  router.get('/webhooks/deliveries', async (ctx) => {
    const project = await projectOf(ctx);
    const query = parseInput(DeliveriesQuery, ctx.query, 'query');
    ctx.body = { deliveries: await webhooks.deliveries(project.id, query.limit) };
  });

  router.get('/jobs', async (ctx) => {
    const project = await projectOf(ctx);
    const query = parseInput(ListJobsQuery, ctx.query, 'query');
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
