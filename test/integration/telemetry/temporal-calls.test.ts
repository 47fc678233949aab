/**
 * The workflow calls of the platform's Temporal client, timed by call and outcome on the suite's
 * dev server: Temporal's answers about one workflow (not found, id taken) are told apart from
 * Temporal failing, so an alert on `outcome="error"` means Temporal, not a missing workflow.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { ApiServices } from '../../../api/services.js';
import { PING_WORKFLOW, type PingWorkflow } from '../../../core/contracts/index.js';
import { testServices } from '../../support/services.js';

async function calls(services: ApiServices): Promise<Record<string, number>> {
  const metric = (await services.metrics.registry.getSingleMetric('quire_temporal_request_duration_seconds')!.get()) as {
    values: Array<{ metricName?: string; labels: Record<string, unknown>; value: number }>;
  };
  const counts = metric.values.filter((v) => v.metricName === 'quire_temporal_request_duration_seconds_count');
  return Object.fromEntries(counts.map((v) => [`${String(v.labels.operation)} ${String(v.labels.outcome)}`, v.value]));
}

describe('Temporal call metrics', function () {
  this.timeout(60_000);

  it('counts each workflow call by outcome: ok, not_found, already_started', async () => {
    const services = await testServices({ taskQueue: `calls-${randomUUID()}` });
    const workflowId = `calls-${randomUUID()}`;
    const start = () => services.temporal.workflow.start<PingWorkflow>(PING_WORKFLOW, { taskQueue: services.config.temporal.taskQueue, workflowId, args: ['x'] });
    const handle = await start();
    await assert.rejects(start(), WorkflowExecutionAlreadyStartedError);
    await assert.rejects(services.temporal.workflow.getHandle(`missing-${randomUUID()}`).describe(), WorkflowNotFoundError);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    await handle.terminate('test over');
    assert.deepEqual(await calls(services), {
      'start ok': 1,
      'start already_started': 1,
      'describe not_found': 1,
      'describe ok': 1,
      'terminate ok': 1,
    });
  });
});
