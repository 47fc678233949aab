/**
 * The automation-run workflow's contract: what a Temporal Schedule starts on each firing, and the
 * ids the API, the CLI and the worker share. Imports only types, so callers never load workflow code.
 */

export const AUTOMATION_RUN_WORKFLOW = 'automationRunWorkflow';
export type AutomationRunWorkflow = (input: AutomationRunInput) => Promise<AutomationRunResult>;

/** Only ids: the prompt stays in Quire's store, out of the schedule and of workflow history. */
export interface AutomationRunInput {
  projectId: string;
  automationId: string;
}

/** Why a firing started no job (also what `lastRun.skipped.code` says). */
export const AUTOMATION_SKIP = {
  /** The automation's previous job is still running a turn (the overlap policy). */
  overlap: 'overlap',
  /** The project's hourly allowance of job creates is spent. */
  rateLimited: 'rate_limited',
  /** The project no longer allows the automation's model. */
  modelNotAllowed: 'model_not_allowed',
  /** The project or the automation was deleted while the schedule still fired. */
  notFound: 'not_found',
  /** The project's delete has begun (or ended) before the job was stored: no job, and the firing is not retried. */
  projectDeleted: 'project_deleted',
  /** The job could not be started (an engine failed): the firing is retried, and its last run says why meanwhile. */
  startFailed: 'start_failed',
} as const;
export type AutomationSkipCode = (typeof AUTOMATION_SKIP)[keyof typeof AUTOMATION_SKIP];

/** What one firing did: started a job, or skipped with a reason. Small: it is the run's result. */
export type AutomationRunResult = { jobId: string } | { skipped: AutomationSkipCode; reason: string };

/** The schedule's id, readable in the Temporal UI. */
export function automationScheduleId(projectId: string, automationId: string): string {
  return `quire-automation-${projectId}-${automationId}`;
}

/** The id of the run workflows the schedule starts (Temporal appends the firing time). */
export function automationRunWorkflowId(projectId: string, automationId: string): string {
  return `quire-automation-run-${projectId}-${automationId}`;
}
