/**
 * Continue-as-new on a real dev server told to suggest it early (after 40
 * history events): a run kept open by messages that arrive during each turn
 * continues as new, and the next run goes on from the database with its turn
 * count, PR link and pending messages; a message a turn took before is not
 * run again. Stand-in agent activities keep the turns short; the job
 * activities and the database are real.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../../activities/index.js';
import type { AgentTurnInput } from '../../../activities/agent/index.js';
import { jobRunOptions, newJobRecord, runInput } from '../../../api/agent/create-job.js';
import { AGENT_JOB_WORKFLOW, JOB_STATUS, type AgentJobWorkflow } from '../../../core/contracts/index.js';
import { sendJobMessage, type JobRunDeps } from '../../../core/jobs/index.js';
import { testServices } from '../../support/services.js';
import { earlyContinueAsNewEnv, startWorker } from '../../support/temporal.js';

describe('agent job workflow across continue-as-new', function () {
  this.timeout(120_000);

  it('carries the state, turn count and seen message ids into the next run', async () => {
    const env = await earlyContinueAsNewEnv();
    const services = await testServices({ withTemporal: false });
    const turns: AgentTurnInput[] = [];
    const taskQueue = `can-${randomUUID()}`;
    const deps: JobRunDeps = { temporal: env.client, config: { ...services.config, temporal: { ...services.config.temporal, taskQueue } } };
    const job = newJobRecord({ projectId: 'docs', repository: 'r', ref: 'main', model: 'm' });
    const MESSAGES = 8;
    /** A follow-up sent while turn `turn` runs, so the run has another turn to take when it ends. */
    const followUp = async (turn: number) => {
      const message = { id: `m${turn}`, prompt: `p${turn}` };
      await services.jobs.putMessage('docs', job.id, message);
      await sendJobMessage(deps, job, message);
    };
    await startWorker(services, {
      env,
      taskQueue,
      activities: {
        ...createActivities(services),
        runAgentTurn: async (input) => {
          turns.push(input);
          if (input.turn < MESSAGES) await followUp(input.turn);
          return { changed: true, commitSha: `sha${input.turn}`, filesChanged: ['a.mdx'], title: 't', summary: 's', validationErrors: [], stopReason: 'finish', steps: 1 };
        },
        openOrUpdatePullRequest: async (input) => ({ url: `http://forge.test/pr/${input.jobId}`, number: 1, created: input.turn === 1 }),
      },
    });

    await services.jobs.create(job);
    await services.jobs.putMessage('docs', job.id, { id: 'm0', prompt: 'p0' });
    const input = runInput(job, { draft: false, turnTimeoutSeconds: 60, heartbeatSeconds: 20 }, [{ id: 'm0', summary: 'p0' }]);
    const handle = await env.client.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, jobRunOptions(job, input, { summary: 'p0', status: 'active' }, taskQueue));
    const firstRun = handle.firstExecutionRunId;
    const latest = () => env.client.workflow.getHandle(handle.workflowId);
    // The handle follows the chain of runs to the last one's result.
    const done = await handle.result();
    assert.equal(done.status, 'completed');
    assert.equal(done.turns, MESSAGES);
    assert.equal(done.prLink, `http://forge.test/pr/${job.id}`);
    const described = await latest().describe();
    assert.notEqual(described.runId, firstRun, 'the run continued as new');
    assert.equal((await env.client.workflow.getHandle(handle.workflowId, firstRun).describe()).status.name, 'CONTINUED_AS_NEW');
    assert.equal(described.status.name, 'COMPLETED');
    assert.deepEqual(described.typedSearchAttributes.get(JOB_STATUS), 'completed');
    const mine = () => turns.filter((t) => t.jobId === job.id);
    // Every message once, in order, numbered across the runs.
    assert.deepEqual(mine().map((t) => t.turn), mine().map((_, i) => i + 1));
    assert.deepEqual(mine().flatMap((t) => t.messages.map((m) => m.id)), Array.from({ length: MESSAGES }, (_, i) => `m${i}`));
    assert.deepEqual(await services.jobs.get('docs', job.id), done, 'the database holds what the last run ended with');
    // A message a turn took before is not run again by a later run.
    await sendJobMessage(deps, done, { id: 'm0', prompt: 'p0' });
    await latest().result();
    assert.equal(mine().length, MESSAGES);
  });
});
