import {
  ActivityCancellationType,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  makeContinueAsNewFunc,
  patched,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/common';
import type { AgentActivities } from '../../activities/agent/index.js';
import type { EventActivities } from '../../activities/events/index.js';
import type { JobActivities } from '../../activities/jobs/index.js';
import {
  AGENT_NON_RETRYABLE,
  archiveSignal,
  archiveUpdate,
  isJobMessage,
  JOB_ARCHIVED,
  jobStateQuery,
  messageRef,
  messageSignal,
  sendMessageUpdate,
  type AgentJobInput,
  type JobSettings,
  type MessageRef,
} from '../../core/contracts/agent-job.js';
import { JOB_STATUS } from '../../core/contracts/search-attributes.js';
import { jobBranch, type JobRecord } from '../../core/jobs/job-record.js';
import type { NewJobEvent } from '../../core/jobs/job-events.js';
import { isJobStopReason } from '../../core/jobs/job-report.js';
import { jobErrorOf } from './job-error.js';
import { archivedEvent, turnEndedEvents, turnStartedEvent } from './turn-events.js';
import {
  acceptMessage,
  archiveJob,
  beginTurn,
  continueAsNewInput,
  endTurn,
  isArchived,
  noteFilesChanged,
  startState,
  type JobState,
  type TurnOutcome,
  type TurnReport,
} from './job-state.js';

const DAY_MS = 86_400_000;
/** Jobs started before the event feed replay without its activity calls. */
const JOB_EVENTS_PATCH = 'job-events';

const feed = proxyActivities<EventActivities>({
  startToCloseTimeout: '30 seconds',
  // Bounded: a broken event log delays the job's next state by seconds, never fails it.
  retry: { initialInterval: '1 second', maximumInterval: '5 seconds', maximumAttempts: 4 },
  summary: 'job events',
});

const store = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
  summary: 'job store',
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

/** The job's turn bounds, and a summary operators read in the Temporal UI. */
function turnOptions(settings: JobSettings, turn: number, batch: MessageRef[]): ActivityOptions {
  return {
    startToCloseTimeout: settings.turnTimeoutSeconds * 1000,
    heartbeatTimeout: settings.heartbeatSeconds * 1000,
    summary: `turn ${turn}: ${batch[0]?.summary ?? ''}`,
  };
}

/** One job: wait for messages, run one agent turn for all pending ones, open the PR, record status. */
export async function agentJobWorkflow(input: AgentJobInput): Promise<JobRecord> {
  const { settings } = input;
  let state = startState(input);
  let published = state.job;
  let recorded = state.job.revision;
  let turnScope: CancellationScope | undefined;
  /** Signalled messages whose prompts are being stored. */
  const arriving = new Set<string>();
  const now = () => new Date().toISOString();

  /** Shows the state to GET (the memo) and to Temporal UI filters (the status search attribute). */
  const publish = () => {
    if (state.job.revision === published.revision) return;
    upsertMemo({ job: state.job });
    if (state.job.status !== published.status) upsertSearchAttributes([{ key: JOB_STATUS, value: state.job.status }]);
    published = state.job;
  };
  /** The store before the memo: a state GET shows is already in the list. */
  const record = async () => {
    const job = state.job;
    if (job.revision !== recorded) {
      try {
        await store.recordJobState(job);
        recorded = job.revision;
      } catch (err) {
        // The memo still holds the state; a broken store must not fail the job.
        log.warn('could not record the job state', { jobId: job.id, error: String(err) });
      }
    }
    publish();
  };
  /** Logs events before the state they lead to is recorded, so a stream that sees the job idle finds its closing event. */
  const tell = async (events: NewJobEvent[]) => {
    if (events.length === 0 || !patched(JOB_EVENTS_PATCH)) return;
    try {
      await feed.publishJobEvents(events);
    } catch (err) {
      log.warn('could not log the job events', { jobId: state.job.id, error: String(err) });
    }
  };
  const apply = (next: JobState): JobRecord => {
    state = next;
    publish();
    return state.job;
  };
  const archive = () => {
    apply(archiveJob(state, now()));
    turnScope?.cancel();
    return state.job;
  };

  setHandler(jobStateQuery, () => state.job);
  setHandler(sendMessageUpdate, (message) => apply(acceptMessage(state, message, now())), {
    validator: (_message: MessageRef) => {
      if (isArchived(state)) throw ApplicationFailure.nonRetryable('the job is archived', JOB_ARCHIVED);
    },
  });
  setHandler(archiveUpdate, archive);
  setHandler(archiveSignal, () => void archive());
  setHandler(messageSignal, async (message: unknown) => {
    // Signals come from people and tools too: a malformed one is dropped, never a failed task.
    if (!isJobMessage(message) || message.prompt.trim() === '') {
      log.warn('message signal ignored: expected {"id": string, "prompt": string}', { jobId: state.job.id });
      return;
    }
    const ignored = (reason: string) => log.warn(`message signal ignored: ${reason}`, { jobId: state.job.id, messageId: message.id });
    // A repeat arriving while the first is still being stored is a repeat too.
    if (state.seen.includes(message.id) || arriving.has(message.id)) return;
    if (isArchived(state)) return ignored('the job is archived');
    arriving.add(message.id);
    try {
      // The prompt goes to the job store like the API's; only its reference stays in the workflow.
      await store.storeJobMessage({ projectId: state.job.projectId, jobId: state.job.id, message });
    } catch (err) {
      return ignored(`the job store did not take it (${String(err)})`);
    } finally {
      arriving.delete(message.id);
    }
    if (isArchived(state)) return ignored('the job is archived');
    apply(acceptMessage(state, messageRef(message), now()));
  });

  const runTurn = async (batch: MessageRef[]): Promise<TurnOutcome> => {
    const job = state.job;
    const turn = state.turn;
    // The job's own branch (a client may name it); records from before it was kept derive it.
    const branch = job.branch || jobBranch(job.id);
    turnScope = new CancellationScope();
    try {
      return await turnScope.run(async (): Promise<TurnOutcome> => {
        const result = await agent.runAgentTurn.executeWithOptions(turnOptions(settings, turn, batch), [
          { jobId: job.id, projectId: job.projectId, model: job.model, branch, turn, messages: batch },
        ]);
        const report: TurnReport = {
          changed: result.changed,
          title: result.title,
          summary: result.summary,
          stopReason: isJobStopReason(result.stopReason) ? result.stopReason : null,
          filesChanged: result.filesChanged,
          ...(result.todos ? { todos: result.todos } : {}),
        };
        if (!result.changed) return { kind: 'done', prLink: null, report };
        state = noteFilesChanged(state, result.filesChanged);
        const pr = await forge.openOrUpdatePullRequest.executeWithOptions({ summary: `turn ${turn}: open or update the pull request` }, [
          {
            jobId: job.id,
            projectId: job.projectId,
            branch,
            turn,
            title: result.title,
            summary: result.summary,
            messageIds: state.handled,
            filesChanged: state.filesChanged,
            validationErrors: result.validationErrors,
            stopReason: result.stopReason,
            ...(result.instructionFiles?.length ? { instructionFiles: result.instructionFiles } : {}),
            draft: settings.draft,
          },
        ]);
        return { kind: 'done', prLink: pr.url, report };
      });
    } catch (err) {
      if (isCancellation(err) && isArchived(state)) return { kind: 'cancelled' };
      return { kind: 'failed', error: jobErrorOf(err) };
    } finally {
      turnScope = undefined;
    }
  };

  for (;;) {
    const woke = await condition(() => state.pending.length > 0 || isArchived(state), settings.idleArchiveDays * DAY_MS);
    if (!woke) state = archiveJob(state, now());
    if (isArchived(state)) break;

    const begun = beginTurn(state, now());
    state = begun.state;
    await tell([turnStartedEvent(state, begun.batch, now())]);
    await record();
    // An archive that came in meanwhile stops the job before its turn pushes anything.
    if (isArchived(state)) break;
    const outcome = await runTurn(begun.batch);
    if (isArchived(state)) break;
    const before = state;
    state = endTurn(state, outcome, now());
    await tell(turnEndedEvents(before, state, outcome, now()));
    await record();

    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      // Without an explicit memo the next run starts from the memo the job was *created* with, so a
      // client polling across the switch would see the first turn's `active` again.
      const next = makeContinueAsNewFunc<typeof agentJobWorkflow>({ memo: { job: state.job }, typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next(continueAsNewInput(state, settings));
    }
  }

  await tell([archivedEvent(state.job, now())]);
  await record();
  await condition(allHandlersFinished);
  return state.job;
}
