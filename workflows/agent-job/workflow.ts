import {
  ActivityCancellationType,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/common';
import type { AgentActivities } from '../../activities/agent/index.js';
import type { JobActivities } from '../../activities/jobs/index.js';
import {
  AGENT_NON_RETRYABLE,
  archiveUpdate,
  JOB_ARCHIVED,
  sendMessageUpdate,
  type AgentJobInput,
  type JobSettings,
  type MessageRef,
} from '../../core/contracts/agent-job.js';
import { JOB_STATUS } from '../../core/contracts/search-attributes.js';
import type { JobRecord, JobStatus } from '../../core/jobs/job-record.js';
import type { NewJobEvent } from '../../core/jobs/job-events.js';
import { isJobStopReason } from '../../core/jobs/job-report.js';
import { jobErrorOf } from './job-error.js';
import { archivedEvent, turnEndedEvents, turnStartedEvent } from './turn-events.js';
import { acceptMessage, archiveJob, beginTurn, endTurn, isArchived, keepPullRequest, noteFilesChanged, runFailure, startState, type JobState, type TurnOutcome } from './job-state.js';

const store = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  // The database is the job's only record: a run waits for it rather than go on without it.
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  summary: 'job state',
});

const agent = proxyActivities<AgentActivities>({
  // Each call passes the job's own bounds (turnOptions); these are the configuration's defaults.
  startToCloseTimeout: '1020 seconds',
  heartbeatTimeout: '60 seconds',
  // Archive waits until the turn has really stopped, so nothing is pushed after `archived`.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 6, nonRetryableErrorTypes: [...AGENT_NON_RETRYABLE] },
});

const forge = proxyActivities<AgentActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 8, nonRetryableErrorTypes: [...AGENT_NON_RETRYABLE] },
});

/**
 * A run lists the status of the job it loaded even when it records nothing: a message or an
 * archive sent from a stale read starts a run with the status that read saw. Runs from before the
 * patch listed only what they recorded.
 */
const LIST_LOADED_STATUS = 'agent-job-list-loaded-status';

/** The job's turn bounds, and a summary operators read in the Temporal UI. */
function turnOptions(settings: JobSettings, turn: number, batch: MessageRef[]): ActivityOptions {
  return {
    startToCloseTimeout: settings.turnTimeoutSeconds * 1000,
    heartbeatTimeout: settings.heartbeatSeconds * 1000,
    summary: `turn ${turn}: ${batch[0]?.summary ?? ''}`,
  };
}

/** One agent turn in `scope` (an archive cancels it): the agent, then the pull request when it changed something. */
async function runTurn(scope: CancellationScope, state: JobState, settings: JobSettings, batch: MessageRef[]): Promise<TurnOutcome> {
  const { job, turn } = state;
  try {
    return await scope.run(async (): Promise<TurnOutcome> => {
      const turnInput = { jobId: job.id, projectId: job.projectId, model: job.model, branch: job.branch, turn, messages: batch };
      const result = await agent.runAgentTurn.executeWithOptions(turnOptions(settings, turn, batch), [turnInput]);
      const stopReason = isJobStopReason(result.stopReason) ? result.stopReason : null;
      const report = { changed: result.changed, title: result.title, summary: result.summary, stopReason, filesChanged: result.filesChanged, ...(result.todos ? { todos: result.todos } : {}) };
      if (!result.changed) return { kind: 'done', prLink: null, opened: false, report };
      // The branch is pushed: an archive now waits for its pull request rather than leave one the job never names.
      const pr = await CancellationScope.nonCancellable(() =>
        forge.openOrUpdatePullRequest.executeWithOptions({ summary: `turn ${turn}: open or update the pull request` }, [
          {
            jobId: job.id, projectId: job.projectId, branch: job.branch, turn, title: result.title, summary: result.summary,
            messageIds: state.handled, filesChanged: noteFilesChanged(state, result.filesChanged).filesChanged,
            validationErrors: result.validationErrors, stopReason: result.stopReason, draft: settings.draft,
            ...(result.instructionFiles?.length ? { instructionFiles: result.instructionFiles } : {}),
          },
        ]),
      );
      return { kind: 'done', prLink: pr.url, opened: pr.created, report };
    });
  } catch (err) {
    return isCancellation(err) ? { kind: 'cancelled' } : { kind: 'failed', error: jobErrorOf(err) };
  }
}

/**
 * One run of a job: loads the job, runs a turn for the pending messages (and for those that arrive
 * meanwhile), records each state with its events, and ends Completed, or Failed with the job's error.
 */
export async function agentJobWorkflow(input: AgentJobInput): Promise<JobRecord> {
  const { settings } = input;
  const now = () => new Date().toISOString();
  let state!: JobState;
  let recorded = -1;
  // Handlers are set before the job loads (an update that starts a run arrives with it) and wait for it.
  const loading = store.loadJob({ projectId: input.projectId, jobId: input.jobId }).then((loaded) => {
    state = startState(loaded, input.pending);
    recorded = state.job.revision;
  });
  let shown: JobStatus | undefined;
  let writes = Promise.resolve();
  let turn: CancellationScope | undefined;

  /** Writes the job and its new events in one transaction, in order; Temporal's list shows the status. */
  const record = (events: NewJobEvent[] = []): Promise<void> => {
    const { job } = state;
    if (job.status !== shown) upsertSearchAttributes([{ key: JOB_STATUS, value: (shown = job.status) }]);
    if (job.revision === recorded && events.length === 0) return writes;
    recorded = job.revision;
    writes = writes.then(() => store.recordJob({ job, events }));
    return writes;
  };

  setHandler(sendMessageUpdate, async (message) => {
    await loading;
    if (isArchived(state)) throw ApplicationFailure.nonRetryable('the job is archived', JOB_ARCHIVED);
    state = acceptMessage(state, message, now());
    await record();
    return state.job;
  }, {
    validator: (_message: MessageRef) => {
      if (state && isArchived(state)) throw ApplicationFailure.nonRetryable('the job is archived', JOB_ARCHIVED);
    },
  });
  setHandler(archiveUpdate, async () => {
    await loading;
    if (!isArchived(state)) {
      state = archiveJob(state, now());
      turn?.cancel();
      await condition(() => turn === undefined);
      await record([archivedEvent(state.job, now())]);
    }
    await writes;
    return state.job;
  });

  await loading;
  if (patched(LIST_LOADED_STATUS)) {
    shown ??= workflowInfo().typedSearchAttributes.get(JOB_STATUS) as JobStatus | undefined;
    await record();
  }
  for (;;) {
    // An update that started this run (or came meanwhile) is accepted before the run can end.
    await condition(() => state.pending.length > 0 || isArchived(state) || allHandlersFinished());
    if (isArchived(state) || state.pending.length === 0) break;
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof agentJobWorkflow>({ ...input, pending: state.pending });
    }
    const begun = beginTurn(state, now());
    state = begun.state;
    await record([turnStartedEvent(state, begun.batch, now())]);
    if (isArchived(state)) continue;
    turn = new CancellationScope();
    const outcome = await runTurn(turn, state, settings, begun.batch);
    turn = undefined;
    // Archived meanwhile: the archive records the job, with the pull request the turn opened.
    state = isArchived(state) ? keepPullRequest(state, outcome, now()) : state;
    if (isArchived(state)) continue;
    state = endTurn(state, outcome, now());
    await record(turnEndedEvents(state, outcome, now()));
  }
  await condition(allHandlersFinished);
  const failure = runFailure(state);
  if (failure) throw ApplicationFailure.create({ message: failure.message, type: failure.code, nonRetryable: true });
  return state.job;
}
