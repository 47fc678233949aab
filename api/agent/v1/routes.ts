import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { authOf, requireKey } from '../../auth.js';
import { badRequest } from '../../http-error.js';
import type { ApiServices } from '../../services.js';
import { parseInput } from '../../validation.js';
import { spendAgentLimit } from '../agent-limits.js';
import { chooseModel } from '../choose-model.js';
import { createJob } from '../create-job.js';
import { streamJobEvents } from '../job-event-stream.js';
import { readJob } from '../job-reader.js';
import { agentAccess } from '../project-access.js';
import { fromMessages } from './conversation.js';
import { runFrame } from './run-frame.js';
import { CreateSessionBody, ListSessionsQuery } from './schemas.js';
import { toSession } from './session.js';

/** What the v1 agent routes use. */
export type AgentV1RouterDeps = Pick<ApiServices, 'tenants' | 'jobs' | 'events' | 'temporal' | 'limiter' | 'config' | 'logger'>;

/**
 * Mintlify's v1 agent endpoints, for clients written against its admin API: the same jobs,
 * keys, limits and checks as v2, in Mintlify's request and session shapes.
 */
export function agentV1Router(services: AgentV1RouterDeps): Router {
  const store = services.jobs;
  const events = services.events;
  const router = new Router({ prefix: '/v1/agent' });
  router.use(requireKey(services.tenants, 'admin'));
  const { projectOf, projectAndLimits, jobOf } = agentAccess(services, store);

  const create = async (ctx: Context) => {
    const { project, limits } = await projectAndLimits(ctx);
    const body = parseInput(CreateSessionBody, ctx.request.body);
    const model = chooseModel(project, services.config, body.model);
    if (body.branch === project.branch) {
      const rule = `must not be the project's base branch (${project.branch}): the agent's changes arrive as a pull request into it`;
      throw badRequest(`invalid body: branch: ${rule}`, [{ path: 'branch', message: rule }]);
    }
    const { prompt, preamble } = fromMessages(body.messages);
    const messageId = randomUUID();
    // A create refused from here on (its project being deleted, Temporal down, …) gives its unit back.
    const { job } = await spendAgentLimit(ctx, services, { limits, projectId: project.id, kind: 'create' }, () =>
      createJob({ temporal: services.temporal, store, config: services.config }, {
        projectId: project.id,
        repository: project.repository,
        ref: project.branch,
        model,
        prompt,
        draft: body.asDraft ?? false,
        messageId,
        ...(body.branch ? { branch: body.branch } : {}),
        ...(preamble ? { preamble } : {}),
      }),
    );
    ctx.set({ 'X-Session-Id': job.id, 'X-Branch-Name': job.branch, 'X-Message-Id': messageId });
    streamJobEvents(
      ctx,
      { events, status: async () => (await readJob(store, project.id, job.id))?.record.status, inForce: authOf(ctx).inForce },
      { jobId: job.id, lastEventId: 0, stallTimeoutMs: services.config.http.streamStallTimeoutMs, logger: services.logger, format: runFrame },
    );
  };
  router.post('/:projectId/job', create);
  // The path of Mintlify's published admin-openapi.json (`/agent/job/{domain}`), for clients built from it.
  router.post('/job/:projectId', create);

  router.get('/:projectId/job/:id', async (ctx) => {
    const project = await projectOf(ctx);
    ctx.body = toSession((await jobOf(ctx, project)).record);
  });

  router.get('/:projectId/jobs', async (ctx) => {
    const project = await projectOf(ctx);
    const query = parseInput(ListSessionsQuery, ctx.query, 'query');
    // The store pages by cursor; a skip reads the skipped jobs too, which MAX_SKIP keeps cheap.
    const page = await store.list(project.id, { limit: query.skip + query.take });
    ctx.body = { allSessions: page.jobs.slice(query.skip).map(toSession) };
  });

  return router;
}
