/**
 * deleteWorkflowRuns on the real Temporal dev server: every run of a workflow id goes, closed or
 * open, history and visibility record; a repeat, or an id that never ran, is fine.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { PROJECT_ID } from '../../../core/contracts/search-attributes.js';
import { deleteWorkflowRuns } from '../../../core/temporal/delete-runs.js';
import { filterLiteral } from '../../../core/temporal/list-filter.js';
import { pingWorkflow } from '../../../workflows/ping.js';
import { testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { leftInTemporal, leftListedBy, listedRuns, runsListedBy } from '../../support/workflow-runs.js';

describe('deleting every run of a workflow id (Temporal dev server)', function () {
  this.timeout(180_000);
  let temporal: Client;
  let taskQueue: string;

  before(async () => {
    const services = await testServices();
    taskQueue = (await startWorker(services)).taskQueue;
    temporal = (await temporalEnv()).client;
  });

  it('deletes the closed runs and the open one of each id, leaving other ids; a repeat and an id never run are fine', async () => {
    const [closed, open, kept, never] = ['closed', 'open', 'kept', 'never'].map((name) => `${name}-${randomUUID()}`) as [string, string, string, string];
    for (const message of ['one', 'two', 'three']) await temporal.workflow.execute(pingWorkflow, { taskQueue, workflowId: closed, args: [message] });
    await temporal.workflow.execute(pingWorkflow, { taskQueue, workflowId: open, args: ['closed first'] });
    // A run on a queue no worker polls stays open.
    await temporal.workflow.start(pingWorkflow, { taskQueue: `nowhere-${randomUUID()}`, workflowId: open, args: ['open'] });
    await temporal.workflow.execute(pingWorkflow, { taskQueue, workflowId: kept, args: ['kept'] });

    await deleteWorkflowRuns(temporal, [closed, open, never]);
    await deleteWorkflowRuns(temporal, [closed, open, never]);
    assert.deepEqual(await leftInTemporal(temporal, [closed, open, never]), { described: [], listed: [] });
    assert.equal((await temporal.workflow.getHandle(kept).describe()).status.name, 'COMPLETED', 'another id keeps its run');
    assert.equal((await listedRuns(temporal, [kept])).length, 1);
    await deleteWorkflowRuns(temporal, [closed]);
  });

  it('deletes the runs a list filter names, with no workflow id given, and only those', async () => {
    const [named, other] = [randomUUID(), randomUUID()];
    const byProject = (project: string) => `${PROJECT_ID.name} = ${filterLiteral(project)}`;
    for (const project of [named, named, other]) {
      await temporal.workflow.execute(pingWorkflow, { taskQueue, workflowId: `ping-${randomUUID()}`, args: ['hi'], typedSearchAttributes: [{ key: PROJECT_ID, value: project }] });
    }
    // Visibility records a closed run in the background: the delete finds what it lists.
    for (let look = 0; look < 100 && (await runsListedBy(temporal, `${byProject(named)} OR ${byProject(other)}`)).length < 3; look++) await sleep(100);

    await deleteWorkflowRuns(temporal, [], byProject(named));
    assert.deepEqual(await leftListedBy(temporal, byProject(named)), []);
    assert.equal((await runsListedBy(temporal, byProject(other))).length, 1, 'a run the filter does not name stays');
  });
});
