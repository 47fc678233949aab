import * as v from 'valibot';
import type { ScheduleDescription, ScheduleOptions, ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import {
  AUTOMATION_RUN_WORKFLOW,
  automationRunWorkflowId,
  automationScheduleId,
  messageRef,
  type AutomationRunWorkflow,
} from '../contracts/index.js';
import { PROJECT_ID } from '../contracts/search-attributes.js';
import type { AutomationRecord } from './automation-record.js';
import { intervalSeconds } from './timing.js';

/** A firing's run only creates a job and starts its workflow: a minute is ample, and a stuck one never blocks the next firing. */
const RUN_TIMEOUT = '5 minutes';
/** Firings missed while Temporal was down are made up only this long after their time, never as a burst. */
const CATCHUP_WINDOW = '10 minutes';

/**
 * The Temporal Schedule behind an automation: readable id, memo and search attribute saying which
 * project and what it does (the prompt's first line only), and an action carrying nothing but ids.
 * Overlap SKIP: a firing while the previous run workflow is still going is dropped by Temporal;
 * the run itself skips while the automation's previous *job* is still running a turn.
 */
export function automationScheduleOptions(
  record: AutomationRecord,
  taskQueue: string,
  note?: string,
): ScheduleOptions<ScheduleOptionsStartWorkflowAction<AutomationRunWorkflow>> {
  const summary = messageRef({ id: record.id, prompt: record.prompt }).summary;
  // An interval was checked when the automation was created; its seconds are read again here.
  const every = record.interval ? intervalSeconds(record.interval, 0) : undefined;
  const spec =
    every && 'seconds' in every
      ? { intervals: [{ every: every.seconds * 1000 }] }
      : { cronExpressions: [record.cron ?? ''], timezone: record.timezone };
  return {
    scheduleId: automationScheduleId(record.projectId, record.id),
    spec,
    action: {
      type: 'startWorkflow',
      workflowType: AUTOMATION_RUN_WORKFLOW,
      workflowId: automationRunWorkflowId(record.projectId, record.id),
      taskQueue,
      args: [{ projectId: record.projectId, automationId: record.id }],
      workflowExecutionTimeout: RUN_TIMEOUT,
      typedSearchAttributes: [{ key: PROJECT_ID, value: record.projectId }],
      staticSummary: `automation ${record.id}: ${summary}`,
    },
    policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW, pauseOnFailure: false },
    state: note ? { note } : {},
    memo: { projectId: record.projectId, automationId: record.id, prompt: summary, model: record.model ?? '(project default)' },
    typedSearchAttributes: [{ key: PROJECT_ID, value: record.projectId }],
  };
}

/** What the schedule says of an automation: paused or not, why, and the next firings. */
export const ScheduleStateSchema = v.object({
  paused: v.boolean(),
  /** The schedule's note (why it is paused). */
  note: v.nullable(v.string()),
  nextRunTimes: v.array(v.pipe(v.string(), v.isoTimestamp())),
});
export type ScheduleState = v.InferOutput<typeof ScheduleStateSchema>;

export function scheduleStateOf(description: ScheduleDescription): ScheduleState {
  return {
    paused: description.state.paused,
    note: description.state.note || null,
    nextRunTimes: description.info.nextActionTimes.map((t) => t.toISOString()),
  };
}
