import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import { AUTOMATION_SKIP, type AutomationRunInput, type AutomationSkipCode } from '../contracts/automation-run.js';
import { engineClassifier } from '../engine-errors.js';
import {
  createJob,
  isClosedProject,
  jobModel,
  newJobId,
  type JobRecord,
  type JobRequest,
  type JobStore,
  type ProjectDeletedError,
  type ProjectDeletingError,
} from '../jobs/index.js';
import { consumeAgentLimit, RateLimitedError, type LimitState, type Limiter, type Spent } from '../limits/index.js';
import type { Project, TenantStore } from '../tenants/types.js';
import type { AutomationRecord } from './automation-record.js';
import type { AutomationStore } from './automation-store.js';
import { deleteAutomation } from './automations.js';

/** What starting an automation's job needs: the same clients the API's job create uses, plus the automations. */
export interface AutomationDeps {
  temporal: Client;
  automations: AutomationStore;
  jobs: JobStore;
  tenants: TenantStore;
  limiter: Limiter;
  config: Config;
}

export type AutomationStart =
  | { kind: 'started'; job: JobRecord; limit: LimitState | undefined }
  | { kind: 'skipped'; code: AutomationSkipCode; reason: string; rateLimited?: RateLimitedError; closedProject?: ProjectDeletingError | ProjectDeletedError };

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The job id a schedule's run starts, derived from the run so a retried activity starts the same job. */
export function automationJobId(runId: string): string {
  const digest = createHash('sha256').update(`quire-automation-run:${runId}`).digest();
  let id = '';
  for (const b of digest.subarray(0, 20)) id += ALPHABET[b % ALPHABET.length];
  return `job_${id}`;
}

const jobDeps = (deps: AutomationDeps) => ({ temporal: deps.temporal, store: deps.jobs, config: deps.config });

/** The create request of an automation's job: its prompt on the project's repository. */
function jobRequest(project: Project, model: string, automation: AutomationRecord, jobId: string | undefined): JobRequest {
  return {
    projectId: project.id,
    repository: project.repository,
    ref: project.branch,
    model,
    prompt: automation.prompt,
    draft: automation.asDraft,
    ...(jobId ? { jobId } : {}),
  };
}

const skipped = (code: AutomationSkipCode, reason: string): AutomationStart => ({ kind: 'skipped', code, reason });

/** A start its project refused for good (being deleted, or deleted): a decided outcome, not a failure to retry. */
const projectDeleted = (err: ProjectDeletingError | ProjectDeletedError): AutomationStart => ({
  kind: 'skipped',
  code: AUTOMATION_SKIP.projectDeleted,
  reason: err.message,
  closedProject: err,
});

/** How long a run claimed by a start whose job is not stored yet counts as starting (then as a start that died). */
const CLAIM_WINDOW_MS = 10 * 60_000;

const classify = engineClassifier();

/** Why a job could not be started, as its organisation may read it: an engine's own words stay in the worker's log. */
function failureOf(err: unknown): string {
  const known = classify(err);
  return known?.expose ? known.message : 'an unexpected error (the worker\'s log says which)';
}

/**
 * Gives back the create a start counted when it is refused after counting (its project being
 * deleted, Temporal or the database down), unless its job's record stands: a start whose record
 * was written but whose workflow could not start is finished by the run's retry, which finds the
 * record and spends nothing, so this start's unit pays for that job. A record that cannot be read
 * (the database down) leaves the unit spent, as a point the store cannot take back does.
 */
async function giveBackUnlessStored(deps: AutomationDeps, projectId: string, jobId: string, spent: Spent): Promise<void> {
  const stored = await deps.jobs.get(projectId, jobId).then(
    (job) => job !== undefined,
    () => true,
  );
  if (!stored) await deps.limiter.giveBack(spent);
}

/**
 * Starts one ordinary agent job for an automation, through the same path as `POST …/job`: the
 * project's model rules and hourly create allowance apply. Skips (and records why) when the
 * automation's previous job is still running a turn, the allowance is spent, or the model is no
 * longer allowed. Used by a schedule's run (with `jobId` derived from the run) and by trigger.
 * A start refused after it counted its create gives the unit back (see giveBackUnlessStored).
 */
export async function startAutomationJob(deps: AutomationDeps, ref: AutomationRunInput, opts: { jobId?: string } = {}): Promise<AutomationStart> {
  const [stored, project] = await Promise.all([deps.automations.get(ref.projectId, ref.automationId), deps.tenants.getProject(ref.projectId)]);
  if (!stored || !project) {
    // A schedule left behind (its project deleted meanwhile) stops firing, rather than fire for nothing or for a later project of its id.
    if (stored) await deleteAutomation(deps, ref.projectId, ref.automationId);
    return skipped(AUTOMATION_SKIP.notFound, 'the automation or its project no longer exists');
  }
  const { record, lastRun } = stored;
  const note = async (start: AutomationStart): Promise<AutomationStart> => {
    const at = new Date().toISOString();
    const run =
      start.kind === 'started'
        ? { at, jobId: start.job.id, skipped: null }
        : { at, jobId: lastRun?.jobId ?? null, skipped: { code: start.code, reason: start.reason } };
    await deps.automations.noteRun(record.projectId, record.id, run);
    return start;
  };

  // A retried run whose job already exists: that job is this run's. An earlier attempt may have
  // written its record and then failed to start its workflow (Temporal unreachable): while the job
  // is active, the same create again starts that workflow, or joins it if it did start. Its
  // allowance was spent by the attempt that wrote the record. A job stored before its project's
  // delete began stays this run's: that delete archives it.
  const existing = opts.jobId ? await deps.jobs.get(record.projectId, opts.jobId) : undefined;
  if (existing) {
    const job =
      existing.status === 'active'
        ? await createJob(jobDeps(deps), jobRequest(project, existing.model, record, existing.id)).then(
            (created) => created.job,
            (err: unknown) => {
              if (isClosedProject(err)) return existing;
              throw err;
            },
          )
        : existing;
    return note({ kind: 'started', job, limit: undefined });
  }
  // Its delete has begun: no run is claimed, no allowance spent, nothing started.
  try {
    await deps.jobs.requireOpenProject(project.id);
  } catch (err) {
    if (isClosedProject(err)) return note(projectDeleted(err));
    throw err;
  }

  // The run before, unless it is this one's own claim (a retried attempt).
  const before = lastRun?.jobId && lastRun.jobId !== opts.jobId ? lastRun : undefined;
  const previous = before?.jobId ? await deps.jobs.get(record.projectId, before.jobId) : undefined;
  if (previous?.status === 'active') {
    return note(skipped(AUTOMATION_SKIP.overlap, `the previous job ${previous.id} is still running`));
  }
  // Claimed moments ago by another start whose job is not stored yet: that start is creating it (its record is the claim's, left as it is).
  if (before && !previous && !before.skipped && Date.now() - Date.parse(before.at) < CLAIM_WINDOW_MS) {
    return skipped(AUTOMATION_SKIP.overlap, `another start of this automation is starting job ${before.jobId}`);
  }
  const model = jobModel(project, deps.config, record.model ?? undefined);
  if ('refused' in model) return note(skipped(AUTOMATION_SKIP.modelNotAllowed, `model '${record.model ?? ''}' ${model.refused}`));

  // The next run is this start's only if no other (a firing and a trigger at once) claimed it since the run before was read.
  const jobId = opts.jobId ?? newJobId();
  if (!(await deps.automations.claimRun(record.projectId, record.id, stored.runVersion, { at: new Date().toISOString(), jobId, skipped: null }))) {
    return skipped(AUTOMATION_SKIP.overlap, 'another start of this automation took this run');
  }

  let limit: Spent;
  try {
    const org = await deps.tenants.getOrg(project.orgId);
    limit = await consumeAgentLimit(deps.limiter, org?.limits, project.id, 'create');
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    const start = { kind: 'skipped', code: AUTOMATION_SKIP.rateLimited, reason: err.message, rateLimited: err } as const;
    await note(start);
    return start;
  }
  let job: JobRecord;
  try {
    ({ job } = await createJob(jobDeps(deps), jobRequest(project, model.model, record, jobId)));
  } catch (err) {
    await giveBackUnlessStored(deps, project.id, jobId, limit);
    // Its delete began after the project was read (the job store's create reads the mark): no retry
    // would start it, and the run createJob started is stopped. Said in the last run while the
    // automation's row is there (the delete removes it with the project's rows).
    if (isClosedProject(err)) return note(projectDeleted(err));
    // Said in the automation's last run (which otherwise still shows the run before), then thrown on: the run's retries try again.
    await note(skipped(AUTOMATION_SKIP.startFailed, `the job could not be started: ${failureOf(err)}`)).catch(() => undefined);
    throw err;
  }
  return note({ kind: 'started', job, limit });
}
