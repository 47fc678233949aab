import { proxyActivities } from '@temporalio/workflow';
import type { AutomationActivities } from '../activities/automations/index.js';
import type { AutomationRunInput, AutomationRunResult } from '../core/contracts/automation-run.js';

const automations = proxyActivities<AutomationActivities>({
  startToCloseTimeout: '1 minute',
  // Idempotent (the job id comes from this run), so retrying through a store or engine hiccup is safe.
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 5, nonRetryableErrorTypes: ['AutomationWorkerMisconfigured'] },
  summary: 'start the automation’s job',
});

/**
 * What an automation's Temporal Schedule starts on each firing: one activity that creates an
 * ordinary agent job (its record, its message, its workflow), or skips and says why. Only ids
 * pass through this history; the prompt goes from the automation store to the job store.
 */
export async function automationRunWorkflow(input: AutomationRunInput): Promise<AutomationRunResult> {
  return automations.startAutomationJob(input);
}
