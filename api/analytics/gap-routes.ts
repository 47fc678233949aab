import type Router from '@koa/router';
import type { Context } from 'koa';
import { coverageGaps, type CoverageGap, type TimeRange } from '../../core/analytics/index.js';
import { createJob, jobIdForKey, neverStarted, toJobView, type JobRecord } from '../../core/jobs/index.js';
import { spendAgentLimit } from '../agent/agent-limits.js';
import { chooseModel } from '../agent/choose-model.js';
import { IDEMPOTENCY_KEY } from '../agent/schemas.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { HttpError, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { gapPrompt } from './gap-prompt.js';
import { recorderOf } from './recorder-of.js';
import { encodeReportCursor, reportCursor, reportRange, slice } from './report-query.js';
import { GapJobBody, GapsQuery, type GapView } from './schemas.js';

/** Questions considered per report, newest first: enough for a period's topics, bounded in cost (clustering is quadratic). */
const MAX_QUESTIONS = 2000;

export type GapRoutesDeps = Pick<ApiServices, 'tenants' | 'analytics' | 'jobs' | 'temporal' | 'limiter' | 'config'>;

/**
 * The id a gap's job is kept under: its newest question's. Any of the gap's questions' ids finds
 * the job, and questions leave a period oldest first, so the newest keeps the job with its gap the
 * longest (in a shorter period too, and once the gap's earliest question, its id, has aged out).
 */
const jobGapId = (gap: CoverageGap): string => gap.aliases.at(-1) ?? gap.id;

/** A gap as the listing shows it: the schema's fields, not the ids it also answers to. */
function gapView(gap: CoverageGap, jobs: GapView['jobs']): GapView {
  const { id, topic, count, unanswered, notHelpful, questions, examples, pages, suggestion, lastAskedAt } = gap;
  return { id, topic, count, unanswered, notHelpful, questions, examples, pages, suggestion, lastAskedAt: new Date(lastAskedAt).toISOString(), jobs };
}

/** Coverage gaps (admin key) and the agent job that fills one. */
export function gapRoutes(router: Router, services: GapRoutesDeps): void {
  const { tenants, config } = services;
  const recorder = recorderOf(services);
  const store = recorder.store;
  const jobs = services.jobs;
  const days = config.retention.analyticsDays;
  const auth = requireKey(tenants, 'admin');

  const gapsOf = async (domainId: string, range: TimeRange): Promise<CoverageGap[]> => coverageGaps(await store.gapQuestions(domainId, range, MAX_QUESTIONS));

  router.get('/v1/analytics/:domain/gaps', auth, async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const q = parseInput(GapsQuery, ctx.query, 'query');
    const after = reportCursor(q.cursor);
    const range = after ?? reportRange(q, recorder.now(), days);
    const offset = after?.offset ?? 0;
    const gaps = await gapsOf(domain.id, range);
    const { items: page, more } = slice(gaps, offset, q.limit);
    const started = await store.gapJobs(domain.id);
    const views = await Promise.all(
      page.map(async (gap) => {
        // A job is kept under one of the gap's questions' ids (see jobGapId); any of them finds it.
        const own = started.filter((j) => gap.aliases.includes(j.gapId));
        const records = await Promise.all(own.map((j) => jobs.get(j.projectId, j.jobId)));
        const jobViews = records.flatMap((r) => (r ? [{ projectId: r.projectId, ...toJobView(r) }] : [])).map((j) => ({ jobId: j.id, projectId: j.projectId, status: j.status, prLink: j.prLink }));
        return gapView(gap, jobViews);
      }),
    );
    ctx.body = { gaps: views, nextCursor: more ? encodeReportCursor({ from: range.from, to: range.to, offset: offset + q.limit }) : null, hasMore: more };
  });

  router.post('/v1/analytics/:domain/gaps/:gapId/job', auth, async (ctx) => {
    const { orgId } = authOf(ctx);
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(GapJobBody, ctx.request.body ?? {});
    const range = reportRange(body, recorder.now(), days);
    const project = await tenants.getProject(body.projectId);
    if (!project || project.orgId !== orgId) throw notFound(`project '${body.projectId}'`);
    const gapId = String(ctx.params.gapId ?? '');
    const gap = (await gapsOf(domain.id, range)).find((g) => g.aliases.includes(gapId));
    if (!gap) throw notFound(`gap '${gapId.slice(0, 64)}'`);
    const model = chooseModel(project, config, undefined);
    const started = await store.gapJobs(domain.id);
    const own = started.filter((j) => gap.aliases.includes(j.gapId));
    const key = ctx.get('Idempotency-Key');
    // Without a key, the id of the job that follows the gap's newest: two clicks at once name the same
    // job, and make it once. A key names its own (the space keeps it apart from the agent create route's).
    const jobId = jobIdForKey(project.id, IDEMPOTENCY_KEY.test(key) ? `gap ${domain.id} ${key}` : `gap ${domain.id} ${gap.id} after ${own.at(-1)?.jobId ?? 'none'}`);
    const keptFor = started.find((j) => j.jobId === jobId);
    if (keptFor && !gap.aliases.includes(keptFor.gapId)) throw new HttpError(422, 'idempotency_key_reused', 'this Idempotency-Key was used for another gap; use a new key for a new request');
    const made = await jobs.get(project.id, jobId);
    // A first attempt that wrote the job and then could not reach Temporal left its start to this retry.
    const unstarted = made !== undefined && (await neverStarted(services.temporal, made));
    if (made && !unstarted) {
      // A retried request: the job it made, as it is now; no limit spent, nothing started again.
      await store.putGapJob({ domainId: domain.id, gapId: jobGapId(gap), projectId: project.id, jobId, at: recorder.now() });
      answer(ctx, 201, gap, made);
      return;
    }
    const active = unstarted ? undefined : (await Promise.all(own.map((j) => jobs.get(j.projectId, j.jobId)))).find((r) => r?.status === 'active');
    if (active) {
      answer(ctx, 200, gap, active);
      return;
    }
    const org = await tenants.getOrg(orgId);
    // A create refused from here on (its project being deleted, Temporal down, …) gives its unit
    // back, as does one that found the job a create of the same Idempotency-Key made at the same moment.
    const { job } = await spendAgentLimit(
      ctx,
      services,
      { limits: org?.limits, projectId: project.id, kind: 'create' },
      () =>
        createJob(
          { temporal: services.temporal, store: jobs, config },
          { projectId: project.id, repository: project.repository, ref: project.branch, model, prompt: gapPrompt(gap, domain), draft: body.asDraft ?? false, jobId },
        ),
      (created) => created.made || unstarted,
    );
    await store.putGapJob({ domainId: domain.id, gapId: jobGapId(gap), projectId: project.id, jobId: job.id, at: recorder.now() });
    answer(ctx, 201, gap, job);
  });
}

/** The job of a gap: 201 when this request (or the one it retries) started it, 200 when it was already running. */
function answer(ctx: Context, status: 200 | 201, gap: CoverageGap, job: JobRecord): void {
  ctx.status = status;
  ctx.body = { gapId: gap.id, projectId: job.projectId, jobId: job.id };
}
