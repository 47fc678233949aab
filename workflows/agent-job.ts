import {
  ActivityCancellationType,
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  isCancellation,
  log,
  makeContinueAsNewFunc,
  proxyActivities,
  TimeoutFailure,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createAgentActivities, TurnMessage } from '../activities/agent/index.js';
import { AGENT_NON_RETRYABLE } from '../activities/agent/errors.js';
import type { JobActivities } from '../activities/jobs/index.js';
import type { JobError, JobRecord } from '../core/jobs/job-record.js';
import { JOB_STATUS } from '../core/temporal/search-attributes.js';

type AgentActivities = ReturnType<typeof createAgentActivities>;
type TurnOutcome = { kind: 'done'; prLink: string | null } | { kind: 'failed'; error: JobError } | { kind: 'cancelled' };

/** Everything a run needs; continue-as-new carries the same shape forward. */
export interface AgentJobInput {
  job: JobRecord;
  draft: boolean;
  /** Idle days before the job archives itself (config.retention.jobIdleArchiveDays). */
  idleArchiveDays: number;
  /** Upper bound of one agent turn, from config.agent.maxSeconds plus a margin. */
  turnTimeoutSeconds: number;
  /** Heartbeat timeout of a turn (config.agent.heartbeatSeconds); absent in runs started before it existed. */
  heartbeatSeconds?: number;
  /** Messages accepted but not yet handled by a turn. */
  pending: TurnMessage[];
  /** Message ids already accepted: Temporal de-duplicates updates only within a run. */
  seenMessageIds: string[];
  turn: number;
  /** Prompts handled so far (bounded), for the pull-request description. */
  prompts: string[];
  /** Files changed across turns, for the pull-request description. */
  filesChanged: string[];
}

/** The settings a job keeps for its whole life, chosen by the API at create time. */
export type JobSettings = Pick<AgentJobInput, 'draft' | 'idleArchiveDays' | 'turnTimeoutSeconds' | 'heartbeatSeconds'>;

/** The first run's input: the job, its first prompt pending, nothing handled yet. */
export function firstRunInput(job: JobRecord, first: TurnMessage, settings: JobSettings): AgentJobInput {
  return { job, ...settings, pending: [first], seenMessageIds: [], turn: 0, prompts: [], filesChanged: [] };
}

/** A follow-up prompt; accepted (and the job marked active) before the update returns. The API uses this. */
export const sendMessageUpdate = defineUpdate<JobRecord, [TurnMessage]>('sendMessage');
/** Archives the job, cancelling a running turn; idempotent. */
export const archiveUpdate = defineUpdate<JobRecord, []>('archive');
/**
 * The same two as signals, for operators and tools that cannot wait on an update (the Temporal UI,
 * `temporal workflow signal`). A message signalled to an archived job is dropped with a warning,
 * since a signal cannot be refused.
 */
export const messageSignal = defineSignal<[TurnMessage]>('message');
export const archiveSignal = defineSignal('archiveJob');
export const jobStateQuery = defineQuery<JobRecord>('jobState');

/** Error type the message update is rejected with when the job is archived (the API answers 409). */
export const JOB_ARCHIVED = 'JobArchived';

const MAX_SEEN_IDS = 2000;
const MAX_PROMPTS = 50;
const DAY_MS = 86_400_000;
const DEFAULT_HEARTBEAT_SECONDS = 20;

const { recordJobState } = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
  summary: 'record the job state in the job store',
});

/** One job: wait for messages, run one agent turn for all pending ones, open the PR, record status. */
export async function agentJobWorkflow(input: AgentJobInput): Promise<JobRecord> {
  let job = input.job;
  const pending = [...input.pending];
  const seen = new Set(input.seenMessageIds);
  const prompts = [...input.prompts];
  const filesChanged = new Set(input.filesChanged);
  let turn = input.turn;
  let archiveRequested = job.status === 'archived';
  let turnScope: CancellationScope | undefined;

  const setState = (patch: Partial<Omit<JobRecord, 'revision' | 'updatedAt'>>) => {
    const before = job.status;
    job = { ...job, ...patch, updatedAt: new Date().toISOString(), revision: job.revision + 1 };
    upsertMemo({ job });
    if (job.status !== before) upsertSearchAttributes([{ key: JOB_STATUS, value: job.status }]);
  };
  const archive = () => {
    if (archiveRequested) return;
    archiveRequested = true;
    setState({ status: 'archived', archivedAt: new Date().toISOString() });
    turnScope?.cancel();
  };
  const record = async () => {
    try {
      await recordJobState(job);
    } catch (err) {
      // The memo still holds the state; a broken store must not fail the job.
      log.warn('could not record the job state', { jobId: job.id, error: String(err) });
    }
  };

  setHandler(jobStateQuery, () => job);
  const accept = (message: TurnMessage): JobRecord => {
    if (!seen.has(message.id)) {
      seen.add(message.id);
      pending.push(message);
      if (job.status !== 'active' || job.error) setState({ status: 'active', error: null });
    }
    return job;
  };
  setHandler(sendMessageUpdate, accept, {
    validator: (_message: TurnMessage) => {
      if (archiveRequested) throw ApplicationFailure.nonRetryable('the job is archived', JOB_ARCHIVED);
    },
  });
  setHandler(messageSignal, (message: unknown) => {
    // Signals come from people and tools too: a malformed one is dropped, never a failed task.
    if (!isTurnMessage(message)) log.warn('message signal ignored: expected {"id": string, "prompt": string}', { jobId: job.id });
    else if (archiveRequested) log.warn('message signal ignored: the job is archived', { jobId: job.id, messageId: message.id });
    else accept(message);
  });
  setHandler(archiveUpdate, () => {
    archive();
    return job;
  });
  setHandler(archiveSignal, archive);

  const runTurn = async (batch: TurnMessage[]): Promise<TurnOutcome> => {
    const first = batch[0]?.prompt.split('\n')[0]?.slice(0, 80) ?? '';
    const agent = proxyActivities<AgentActivities>({
      startToCloseTimeout: `${input.turnTimeoutSeconds} seconds`,
      heartbeatTimeout: `${input.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS} seconds`,
      // Archive waits until the turn has really stopped, so nothing is pushed after `archived`.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: {
        initialInterval: '5 seconds',
        backoffCoefficient: 2,
        maximumInterval: '2 minutes',
        maximumAttempts: 6,
        nonRetryableErrorTypes: [...AGENT_NON_RETRYABLE],
      },
      summary: `turn ${turn}: ${first}`,
    });
    const forge = proxyActivities<AgentActivities>({
      startToCloseTimeout: '2 minutes',
      retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 8, nonRetryableErrorTypes: [...AGENT_NON_RETRYABLE] },
      summary: `turn ${turn}: open or update the pull request`,
    });
    turnScope = new CancellationScope();
    try {
      return await turnScope.run(async (): Promise<TurnOutcome> => {
        const branch = `quire/${job.id}`;
        const result = await agent.runAgentTurn({ jobId: job.id, projectId: job.projectId, model: job.model, branch, turn, messages: batch });
        if (!result.changed) return { kind: 'done', prLink: null };
        for (const f of result.filesChanged) filesChanged.add(f);
        const pr = await forge.openOrUpdatePullRequest({
          jobId: job.id,
          projectId: job.projectId,
          branch,
          turn,
          title: result.title,
          summary: result.summary,
          prompts,
          filesChanged: [...filesChanged],
          validationErrors: result.validationErrors,
          stopReason: result.stopReason,
          draft: input.draft,
        });
        return { kind: 'done', prLink: pr.url };
      });
    } catch (err) {
      if (isCancellation(err) && archiveRequested) return { kind: 'cancelled' };
      return { kind: 'failed', error: failureOf(err) };
    } finally {
      turnScope = undefined;
    }
  };

  for (;;) {
    const woke = await condition(() => pending.length > 0 || archiveRequested, input.idleArchiveDays * DAY_MS);
    if (!woke && !archiveRequested) archive();
    if (archiveRequested) break;

    const batch = pending.splice(0);
    turn += 1;
    prompts.push(...batch.map((m) => m.prompt));
    prompts.splice(0, Math.max(0, prompts.length - MAX_PROMPTS));
    if (job.status !== 'active') setState({ status: 'active', error: null });
    await record();

    const outcome = await runTurn(batch);
    if (archiveRequested) break;
    // A message that arrived during the turn keeps the job active until its own turn.
    const idle = pending.length === 0;
    if (outcome.kind === 'done') {
      setState({ status: idle ? 'completed' : 'active', prLink: outcome.prLink ?? job.prLink, error: null });
    } else if (outcome.kind === 'failed') {
      setState({ status: idle ? 'failed' : 'active', error: outcome.error });
    }
    await record();

    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      // Without an explicit memo the next run starts from the memo the job was *created* with, so a
      // client polling across the switch would see the first turn's `active` again.
      const next = makeContinueAsNewFunc<typeof agentJobWorkflow>({ memo: { job }, typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({
        ...input,
        job,
        pending,
        seenMessageIds: [...seen].slice(-MAX_SEEN_IDS),
        turn,
        prompts,
        filesChanged: [...filesChanged],
      });
    }
  }

  await record();
  await condition(allHandlersFinished);
  return job;

}

function isTurnMessage(value: unknown): value is TurnMessage {
  return (
    typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' && value.id !== '' &&
    'prompt' in value && typeof value.prompt === 'string' && value.prompt.trim() !== ''
  );
}

/** Turns an activity failure into the job's public error; codes are snake_case error types. */
function failureOf(err: unknown): JobError {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const type = cause.type ?? 'AgentFailed';
    return { code: type.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), message: cause.message };
  }
  if (cause instanceof TimeoutFailure) return { code: 'turn_timed_out', message: 'the agent turn ran out of time' };
  return { code: 'agent_failed', message: cause instanceof Error ? cause.message : 'the agent turn failed' };
}
