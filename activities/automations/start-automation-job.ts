import { Context } from '@temporalio/activity';
import type { AutomationRunInput, AutomationRunResult } from '../../core/contracts/automation-run.js';
import { automationJobId, startAutomationJob } from '../../core/automations/index.js';
import type { ActivityServices } from '../services.js';

/** What an automation firing uses: it starts a job as the API does. */
export type AutomationActivityDeps = Pick<ActivityServices, 'automations' | 'tenants' | 'jobs' | 'temporal' | 'limiter' | 'config' | 'logger'>;

/** The activity a schedule's run calls: starts the automation's job as the API would, or skips and says why. */
export function createAutomationActivities(services: AutomationActivityDeps) {
  const automations = services.automations;
  const jobs = services.jobs;
  return {
    async startAutomationJob(input: AutomationRunInput): Promise<AutomationRunResult> {
      const { temporal, limiter } = services;
      // The job id comes from the run, so a retry of this activity finds the job it already started.
      const runId = Context.current().info.workflowExecution?.runId;
      const deps = { temporal, limiter, automations, jobs, tenants: services.tenants, config: services.config };
      const start = await startAutomationJob(deps, input, runId ? { jobId: automationJobId(runId) } : {});
      if (start.kind === 'started') return { jobId: start.job.id };
      services.logger.info({ ...input, skipped: start.code, reason: start.reason }, 'automation firing skipped');
      return { skipped: start.code, reason: start.reason };
    },
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;
