/**
 * awaitRunsClosed on the real Temporal dev server: it returns once an open run has closed by
 * itself, and gives up on one that does not close within its bound without failing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { awaitRunsClosed } from '../../../core/temporal/await-runs-closed.js';
import { pingWorkflow } from '../../../workflows/ping.js';
import { testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';

describe('waiting for runs to close by themselves (Temporal dev server)', function () {
  this.timeout(120_000);
  let temporal: Client;
  let services: Awaited<ReturnType<typeof testServices>>;

  before(async () => {
    services = await testServices();
    temporal = (await temporalEnv()).client;
  });

  it('returns once the open run has closed: one a worker takes up while it waits ends Completed', async () => {
    const taskQueue = `closing-${randomUUID()}`;
    const workflowId = `closing-${randomUUID()}`;
    // Open until a worker polls its queue, which starts as the wait has begun.
    await temporal.workflow.start(pingWorkflow, { taskQueue, workflowId, args: ['bye'] });
    const waiting = awaitRunsClosed(temporal, [workflowId], [workflowId], 60_000);
    await startWorker(services, { taskQueue });
    await waiting;
    assert.equal((await temporal.workflow.getHandle(workflowId).describe()).status.name, 'COMPLETED');
  });

  it('gives up on a run that does not close within its bound, without failing; no run at all is fine', async () => {
    const workflowId = `stuck-${randomUUID()}`;
    await temporal.workflow.start(pingWorkflow, { taskQueue: `nowhere-${randomUUID()}`, workflowId, args: ['stuck'] });
    await awaitRunsClosed(temporal, [workflowId], [workflowId], 200);
    assert.equal((await temporal.workflow.getHandle(workflowId).describe()).status.name, 'RUNNING');
    await temporal.workflow.getHandle(workflowId).terminate('test over');
    await awaitRunsClosed(temporal, [`never-${randomUUID()}`], [], 200);
  });
});
