import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { pingWorkflow } from '../../../workflows/ping.js';
import { testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';

describe('worker on the real Temporal dev server', () => {
  it('runs a workflow and its activity to completion', async () => {
    const services = await testServices();
    const worker = await startWorker(services);
    const { client } = await temporalEnv();
    const result = await client.workflow.execute(pingWorkflow, {
      taskQueue: worker.taskQueue,
      workflowId: `ping-${randomUUID()}`,
      args: ['hello'],
    });
    assert.equal(result, `pong: hello (${worker.taskQueue})`);
    await worker.stop();
    assert.equal(worker.worker.getState(), 'STOPPED');
  });
});
