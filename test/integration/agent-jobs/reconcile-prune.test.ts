/**
 * A worker deletes the reconcile schedules of the namespace's other task queues once no worker polls
 * them, and only those: its own, a polled queue's, a paused one, one just made, and any schedule that
 * is not a reconcile schedule stay. The Temporal dev server (one of its own: the look covers the whole
 * namespace), real pollers; each look is judged at a time given to it, not by waiting.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import { reconcileJobsScheduleId } from '../../../core/contracts/index.js';
import { pruneReconcileSchedules, reconcileJobsScheduleOptions, type ReconcileScheduleVerdict } from '../../../core/jobs/index.js';
import { tempDir, testServices } from '../../support/services.js';
import { separateTemporalEnv, startWorker } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';

const MINUTE = 60_000;

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) if (await probe()) return;
  throw new Error(`${what} did not happen`);
}

async function listed(client: Client, scheduleIds: string[]): Promise<boolean> {
  const seen = new Set<string>();
  for await (const s of client.schedule.list()) seen.add(s.scheduleId);
  return scheduleIds.every((id) => seen.has(id));
}

async function polled(client: Client, taskQueue: string): Promise<boolean> {
  const { pollers } = await client.workflowService.describeTaskQueue({ namespace: client.options.namespace, taskQueue: { name: taskQueue } });
  return pollers.length > 0;
}

async function exists(client: Client, scheduleId: string): Promise<boolean> {
  return client.schedule
    .getHandle(scheduleId)
    .describe()
    .then(
      () => true,
      (err: unknown) => {
        if (err instanceof ScheduleNotFoundError) return false;
        throw err;
      },
    );
}

/** Each looked-at schedule's task queue and outcome, in a stable order. */
function outcomes(verdicts: ReconcileScheduleVerdict[]): Record<string, string> {
  return Object.fromEntries(verdicts.map((v) => [v.taskQueue, v.outcome]).sort(([a = ''], [b = '']) => a.localeCompare(b)));
}

describe('pruning the reconcile schedules of task queues no worker polls', function () {
  this.timeout(120_000);

  let env: Awaited<ReturnType<typeof separateTemporalEnv>>;
  before(async () => (env = await separateTemporalEnv()));

  it('deletes only the reconcile schedules of other queues with no poller for 5 minutes that no worker made or changed lately', async () => {
    const client = env.client;
    const tag = randomUUID().slice(0, 8);
    const [own, gone, live, stopped, paused] = ['own', 'gone', 'live', 'stopped', 'paused'].map((q) => `${q}-${tag}`) as [string, string, string, string, string];
    for (const queue of [own, gone, live, stopped, paused]) await client.schedule.create(reconcileJobsScheduleOptions(queue));
    await client.schedule.getHandle(reconcileJobsScheduleId(paused)).pause('kept for a look');
    // Named like a reconcile schedule but starting something else, or on a queue its id does not name.
    const otherWorkflow = { ...reconcileJobsScheduleOptions(`other-${tag}`), action: { ...reconcileJobsScheduleOptions(`other-${tag}`).action, workflowType: 'somethingElse' } };
    const otherQueue = { ...reconcileJobsScheduleOptions(`named-${tag}`), action: { ...reconcileJobsScheduleOptions(`named-${tag}`).action, taskQueue: `elsewhere-${tag}` } };
    await client.schedule.create(otherWorkflow);
    await client.schedule.create(otherQueue);

    const services = await testServices({ withTemporal: false });
    await startWorker(services, { env, taskQueue: live });
    const once = await startWorker(services, { env, taskQueue: stopped });
    await until('polls of both queues', async () => (await polled(client, live)) && (await polled(client, stopped)));
    await once.stop();
    const queues = [own, gone, live, stopped, paused].map(reconcileJobsScheduleId);
    await until('all seven schedules listed', () => listed(client, [...queues, otherWorkflow.scheduleId, otherQueue.scheduleId]));

    const now = Date.now();
    assert.deepEqual(outcomes(await pruneReconcileSchedules(client, own, () => now)), {
      [gone]: 'kept_fresh',
      [live]: 'kept_polled',
      [paused]: 'kept_paused',
      [stopped]: 'kept_polled',
    });
    const later = await pruneReconcileSchedules(client, own, () => now + 3 * MINUTE);
    assert.deepEqual(outcomes(later), { [gone]: 'deleted', [live]: 'kept_polled', [paused]: 'kept_paused', [stopped]: 'kept_polled' });
    assert.match(later.find((v) => v.taskQueue === gone)?.why ?? '', new RegExp(`no worker has polled task queue ${gone} in the last 5 minutes`));
    // Six minutes on, the stopped worker's last poll is over 5 minutes old (and so would the live one's be).
    assert.deepEqual(outcomes(await pruneReconcileSchedules(client, own, () => now + 6 * MINUTE)), { [live]: 'deleted', [paused]: 'kept_paused', [stopped]: 'deleted' });

    const left = await Promise.all([own, gone, live, stopped, paused].map((q) => exists(client, reconcileJobsScheduleId(q))));
    assert.deepEqual(left, [true, false, false, false, true]);
    assert.deepEqual(await Promise.all([otherWorkflow, otherQueue].map((o) => exists(client, o.scheduleId))), [true, true]);
  });

  it('is done by the worker at its start, after making its own schedule, and logged', async () => {
    const tag = randomUUID().slice(0, 8);
    const quiet = reconcileJobsScheduleId(`quiet-${tag}`);
    await env.client.schedule.create(reconcileJobsScheduleOptions(`quiet-${tag}`));
    await until('the quiet queue\'s schedule listed', () => listed(env.client, [quiet]));
    const worker = spawnWorker({ TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: `own-${tag}`, QUIRE_DATA_DIR: await tempDir(), QUIRE_EMBEDDER: 'none', LOG_LEVEL: 'info' });
    const lineOf = () => worker.stdout().split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [])).find((l) => l.schedule === quiet);
    await until('a look at the quiet queue\'s schedule', async () => lineOf() !== undefined).catch((err: unknown) => {
      throw new Error(`${String(err)}; worker output:\n${worker.output()}`);
    });
    // Made a moment ago, so left for now; a later look deletes it (the test above judges from later on).
    assert.match(String(lineOf()?.msg), /left another task queue's job-reconcile schedule for now/);
    assert.match(String(lineOf()?.why), new RegExp(`no worker has polled task queue quiet-${tag} in the last 5 minutes`));
    assert.equal(await exists(env.client, reconcileJobsScheduleId(`own-${tag}`)), true);
  });
});
