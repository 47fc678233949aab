/**
 * QUIRE_JOB_RETENTION_DAYS: a job archived longer ago than the retention goes with its messages
 * and events, and the delivery log keeps as long; open jobs (active, completed, failed) stay.
 * Jobs on both dialects of the database (SQLite, a real PostgreSQL); the API over real HTTP with
 * the Temporal dev server. Time is the purge's injected clock, never waited for.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createApp } from '../../../api/app.js';
import type { Database } from '../../../core/db/index.js';
import {
  archiveJobRun,
  createJobEventLog,
  createJobStore,
  pollingJobWakeups,
  deleteJob,
  JobRetention,
  newJobId,
  PURGE_SLICE,
  type JobEventLog,
  type JobRecord,
  type JobStore,
  type JobView,
} from '../../../core/jobs/index.js';
import { newJobRecord } from '../../../api/agent/create-job.js';
import { createLogger } from '../../../core/logger.js';
import { createThreadStore } from '../../../core/threads/index.js';
import { createWebhookStore, webhookId, type WebhookStore } from '../../../core/webhooks/index.js';
import { forEachDialect, testDatabase } from '../../support/databases.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { call } from './agent-api.js';

const DAY = 86_400_000;
const DAYS = 90;
const NOW = Date.UTC(2026, 5, 1);
const daysAgo = (days: number) => new Date(NOW - days * DAY).toISOString();
const silent = createLogger('silent', 'test');

interface Stores {
  database: Database;
  jobs: JobStore;
  events: JobEventLog;
  hooks: WebhookStore;
}

/** A job of project `docs` in `status`, created long ago, last changed (and archived, when archived) `days` ago. */
function job(status: JobRecord['status'], days: number): JobRecord {
  const fresh = newJobRecord({ projectId: 'docs', repository: '/srv/docs.git', ref: 'main', model: 'gpt-test' }, new Date(NOW - (DAYS + 30) * DAY));
  return { ...fresh, status, revision: 3, updatedAt: daysAgo(days), archivedAt: status === 'archived' ? daysAgo(days) : null };
}

/** Stores the job with a message, two events and a delivery of its last event, all as of its last change. */
async function seed(stores: Stores, record: JobRecord): Promise<JobRecord> {
  await stores.jobs.put(record);
  await stores.jobs.putMessage('docs', record.id, { id: 'quire:preamble', prompt: 'the first prompt' });
  for (const [key, type] of [['turn:1:started', 'turn.started'], ['turn:1:finished', 'turn.finished']] as const) {
    await stores.events.append({ key, type, time: record.updatedAt, jobId: record.id, projectId: 'docs', data: {} });
  }
  const hook = webhookId('docs', 'https://hooks.example.com/quire');
  await stores.hooks.recordDelivery({
    deliveryId: `${hook}.${record.id}.2`,
    projectId: 'docs',
    webhookId: hook,
    url: 'https://hooks.example.com/quire',
    event: 'turn.finished',
    jobId: record.id,
    seq: 2,
    status: 'delivered',
    statusCode: 204,
    attempts: 1,
    lastError: null,
    updatedAt: record.updatedAt,
  });
  return record;
}

async function present(stores: Stores, record: JobRecord): Promise<boolean[]> {
  const deliveries = await stores.hooks.deliveries('docs', 200);
  return [
    (await stores.jobs.get('docs', record.id)) !== undefined,
    (await stores.jobs.getMessages('docs', record.id, ['quire:preamble'])).length === 1,
    (await stores.events.after(record.id, 0)).length === 2,
    deliveries.some((d) => d.jobId === record.id),
  ];
}

/** Idle archive left out: these tests are about deletion (its own test below archives through a worker). */
const noIdleArchive = { days: 30, archive: async () => undefined };
/** No thread is past its retention: these tests are about jobs (the timer's test below sweeps threads). */
const noThreads = { sweep: async () => 0 };

const retention = (stores: Stores, now = () => NOW) =>
  new JobRetention({ database: stores.database, jobs: stores.jobs, deliveries: stores.hooks, threads: noThreads, logger: silent, retentionDays: DAYS, idleArchive: noIdleArchive, now });

/** Jobs and events on `database`; webhook deliveries in their own store (core/webhooks). */
async function storesOn(database: Database): Promise<Stores> {
  return { database, jobs: createJobStore(database), events: createJobEventLog(database, pollingJobWakeups(database)), hooks: createWebhookStore(database) };
}

forEachDialect('job retention', (database) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await storesOn(database());
    await stores.hooks.put({ id: webhookId('docs', 'https://hooks.example.com/quire'), projectId: 'docs', url: 'https://hooks.example.com/quire', events: [], secret: { kind: 'stored', value: 'whsec' }, createdAt: daysAgo(200) });
  });

  it('the idle archive skips a job changed since its slice was read (a follow-up meanwhile), and a stop ends the sweep after the job it is at', async () => {
    const first = await seed(stores, { ...job('completed', 40), id: newJobId() });
    const second = await seed(stores, { ...job('completed', 39), id: newJobId() });
    const third = await seed(stores, { ...job('failed', 38), id: newJobId() });
    await seed(stores, { ...job('completed', 37), id: newJobId() });
    const asked: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atThird = new Promise<void>((resolve) => (reached = resolve));
    const sweep = new JobRetention({
      database: stores.database,
      jobs: stores.jobs,
      deliveries: stores.hooks,
      threads: noThreads,
      logger: silent,
      retentionDays: DAYS,
      idleArchive: {
        days: 30,
        archive: async (record) => {
          asked.push(record.id);
          // While the first is archived, a follow-up reaches the second (its workflow records a new revision).
          if (record.id === first.id) await stores.jobs.put({ ...second, status: 'active', revision: second.revision + 1 });
          if (record.id === third.id) {
            reached();
            await held;
          }
        },
      },
      now: () => NOW,
    });
    const round = sweep.tick();
    await atThird;
    assert.deepEqual(asked, [first.id, third.id], 'the second, changed since, is not archived');
    // A stop while the sweep waits on a job: it ends after that one instead of going on.
    const stopped = sweep.stop();
    release();
    await Promise.all([round, stopped]);
    assert.deepEqual(asked, [first.id, third.id], 'the fourth is left for a later sweep');
  });

  it('purges a job archived past the retention with its messages, events and deliveries; keeps the rest', async () => {
    const expired = await seed(stores, job('archived', DAYS + 1));
    const kept = [
      await seed(stores, job('archived', DAYS - 1)),
      // Open jobs stay however long ago they last changed: they still take follow-ups.
      await seed(stores, job('completed', DAYS + 5)),
      await seed(stores, job('failed', DAYS + 5)),
      await seed(stores, job('active', DAYS + 5)),
    ];
    assert.deepEqual(await present(stores, expired), [true, true, true, true]);
    const purged = await retention(stores).purge();
    assert.deepEqual(await present(stores, expired), [false, false, false, false]);
    assert.deepEqual((await stores.jobs.list('docs', { limit: 20 })).jobs.map((j) => j.id).sort(), kept.map((j) => j.id).sort());
    const [recent, ...open] = kept;
    assert.ok(recent);
    assert.deepEqual(await present(stores, recent), [true, true, true, true]);
    // The delivery log goes by the time of the delivery: old deliveries of open jobs go with the retention too.
    for (const record of open) assert.deepEqual(await present(stores, record), [true, true, true, false]);
    assert.deepEqual(purged, { jobs: 1, events: 2, deliveries: 4 });
    assert.deepEqual(await retention(stores).purge(), { jobs: 0, events: 0, deliveries: 0 }, 'a second purge finds nothing');
  });

  it('deletes in slices: more jobs and events than one slice all go', async () => {
    const many = Array.from({ length: PURGE_SLICE + 3 }, () => job('archived', DAYS + 2));
    for (const record of many) await stores.jobs.put(record);
    const long = many[0];
    assert.ok(long);
    for (let seq = 1; seq <= PURGE_SLICE + 2; seq++) {
      await stores.events.append({ key: `step:${seq}`, type: 'tool.step', time: long.updatedAt, jobId: long.id, projectId: 'docs', data: {} });
    }
    const purged = await retention(stores).purge();
    assert.deepEqual(purged, { jobs: PURGE_SLICE + 3, events: PURGE_SLICE + 2, deliveries: 0 });
    assert.deepEqual((await stores.jobs.list('docs', { limit: 10 })).jobs, []);
    assert.deepEqual(await stores.events.after(long.id, 0), []);
  });

  it('deletes a job, its messages and its events in one transaction: cut short, all stay', async () => {
    const record = await seed(stores, job('archived', DAYS + 1));
    await assert.rejects(
      stores.database.transaction(async (trx) => {
        await deleteJob(trx, record.id);
        throw new Error('cut short');
      }),
      /cut short/,
    );
    assert.deepEqual((await present(stores, record)).slice(0, 3), [true, true, true]);
  });
});

forEachDialect('job retention: replicas', (database) => {
  it('does each round on one replica: the first to its round takes the lease, the others skip until its time is up', async () => {
    const stores = await storesOn(database());
    let now = NOW;
    const done: string[] = [];
    const replica = (name: string) =>
      new JobRetention({
        database: stores.database,
        jobs: stores.jobs,
        deliveries: stores.hooks,
        threads: { sweep: async () => (done.push(`${name} sweeps threads`), 0) },
        logger: silent,
        retentionDays: DAYS,
        idleArchive: noIdleArchive,
        now: () => now,
      });
    const [a, b] = [replica('a'), replica('b')];
    const checked = () => stores.database.queries.selectFrom('leases').select(['name', 'holder', 'expires_at']).orderBy('name').execute();
    // Both replicas' timers fire at the same moment.
    await Promise.all([a.tick(), b.tick()]);
    const sweeps = () => done.filter((x) => x.endsWith('sweeps threads'));
    assert.equal(sweeps().length, 1, `one replica swept: ${done.join(', ')}`);
    // The job-reconcile schedule's workflow (worker side) fails stranded jobs: the API's timer has this one round.
    assert.deepEqual((await checked()).map((l) => l.name), ['job-retention']);
    const first = sweeps()[0]!.startsWith('a') ? 'a' : 'b';
    // An hour on, the holder's round renews its lease; the other replica, a minute later, finds it held.
    now += 60 * 60_000;
    await (first === 'a' ? a : b).tick();
    now += 60_000;
    await (first === 'a' ? b : a).tick();
    assert.deepEqual(sweeps(), [`${first} sweeps threads`, `${first} sweeps threads`]);
    // The holder stops: once its time is up, the other replica takes the rounds.
    now += 60 * 60_000;
    await (first === 'a' ? b : a).tick();
    assert.deepEqual(sweeps(), [`${first} sweeps threads`, `${first} sweeps threads`, `${first === 'a' ? 'b' : 'a'} sweeps threads`]);
  });
});

describe('job retention: the timer', () => {
  it('purges once per interval by its clock, and logs a failing store instead of throwing', async () => {
    const stores = await storesOn(await testDatabase('sqlite'));
    let now = NOW;
    const timer = retention(stores, () => now);
    const first = await seed(stores, job('archived', DAYS + 1));
    await timer.tick();
    assert.equal(await stores.jobs.get('docs', first.id), undefined);
    const second = await seed(stores, job('archived', DAYS + 1));
    now += 59 * 60_000;
    await timer.tick();
    assert.ok(await stores.jobs.get('docs', second.id), 'not due within the hour');
    now += 60_000;
    await timer.tick();
    assert.equal(await stores.jobs.get('docs', second.id), undefined);

    const lines: string[] = [];
    const logger = createLogger('error', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()) }));
    // The real store, its disk gone when retention reads it (a database of its own: the timer above holds this one's round).
    const other = await storesOn(await testDatabase('sqlite'));
    const broken: JobStore = { ...other.jobs, archivedBefore: () => Promise.reject(new Error('disk gone')) };
    await new JobRetention({ database: other.database, jobs: broken, deliveries: stores.hooks, threads: noThreads, logger, retentionDays: DAYS, idleArchive: noIdleArchive, now: () => NOW }).tick();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; err: string });
    assert.deepEqual(logged.map((l) => [l.msg, l.err]), [['job retention purge failed', 'disk gone']]);
  });

  it('sweeps threads past QUIRE_THREAD_RETENTION_DAYS on the same hourly timer, with no answer written since', async () => {
    const database = await testDatabase('sqlite');
    const stores = await storesOn(database);
    let now: number;
    const threads = createThreadStore(database, { retentionDays: 30, now: () => new Date(now) });
    const at = (days: number) => new Date(NOW - days * DAY).toISOString();
    const exchange = (days: number) => ({ messageId: 'msg_1', question: 'q', answer: 'a', sources: [], fp: 'anonymous', mode: 'model' as const, outcome: 'complete' as const, startedAt: at(days), finishedAt: at(days) });
    // Written long ago, each as of its own time, by a process that has answered nothing since.
    now = NOW - 31 * DAY;
    await threads.append({ orgId: 'acme', threadId: 'stale', domainId: 'docs' }, exchange(31));
    now = NOW - 29 * DAY;
    await threads.append({ orgId: 'acme', threadId: 'recent', domainId: 'docs' }, exchange(29));
    now = NOW;
    const timer = new JobRetention({ database, jobs: stores.jobs, deliveries: stores.hooks, threads, logger: silent, retentionDays: DAYS, idleArchive: noIdleArchive, now: () => now });
    await timer.tick();
    const left = async () => (await database.queries.selectFrom('threads').select('thread_id').execute()).map((t) => t.thread_id);
    assert.deepEqual(await left(), ['recent']);
    assert.deepEqual(await database.queries.selectFrom('thread_exchanges').select('thread_id').execute(), [{ thread_id: 'recent' }]);
    now += 2 * DAY;
    await timer.tick();
    assert.deepEqual(await left(), [], 'the next hourly round takes the thread that has aged out since');
  });
});

describe('job retention: the API (real HTTP, Temporal dev server)', function () {
  this.timeout(120_000);

  it('answers 404 for a purged job and leaves it out of the list, its events and deliveries', async () => {
    const services = await testServices({ taskQueue: `no-worker-${randomUUID()}` });
    const { adminKey } = await seedOrg(services, 'acme');
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const stores = { database: services.database, jobs: services.jobs, events: services.events, hooks: services.webhooks };
    // The webhook the seeded deliveries are logged for (an attempt is logged only while its webhook exists).
    await stores.hooks.put({ id: webhookId('docs', 'https://hooks.example.com/quire'), projectId: 'docs', url: 'https://hooks.example.com/quire', events: [], secret: { kind: 'stored', value: 'whsec' }, createdAt: daysAgo(200) });
    // Ids of workflows that never ran: Temporal knows none of them, so the store alone answers, as after Temporal's retention.
    const expired = await seed(stores, { ...job('archived', DAYS + 1), id: newJobId() });
    const recent = await seed(stores, { ...job('archived', DAYS - 1), id: newJobId() });
    const open = await seed(stores, { ...job('completed', DAYS + 5), id: newJobId() });
    const base = (await serve(createApp(services))).url;
    const get = (id: string) => call<JobView>(`${base}/v2/agent/docs/job/${id}`, 'GET', adminKey);
    assert.equal((await get(expired.id)).status, 200);

    await new JobRetention({ database: stores.database, jobs: stores.jobs, deliveries: stores.hooks, threads: noThreads, logger: silent, retentionDays: services.config.retention.jobDays, idleArchive: noIdleArchive, now: () => NOW }).purge();

    assert.equal((await get(expired.id)).status, 404);
    assert.equal((await call(`${base}/v2/agent/docs/job/${expired.id}/events`, 'GET', adminKey)).status, 404);
    assert.equal((await get(recent.id)).body.status, 'archived');
    assert.equal((await get(open.id)).body.status, 'completed');
    const listed = await call<{ jobs: JobView[] }>(`${base}/v2/agent/docs/jobs?limit=100`, 'GET', adminKey);
    assert.deepEqual(listed.body.jobs.map((j) => j.id).sort(), [recent.id, open.id].sort());
    const deliveries = await call<{ deliveries: Array<{ jobId: string }> }>(`${base}/v2/agent/docs/webhooks/deliveries`, 'GET', adminKey);
    assert.deepEqual(deliveries.body.deliveries.map((d) => d.jobId), [recent.id]);
  });
});

describe('idle archive (real worker, Temporal dev server)', function () {
  this.timeout(120_000);

  it('archives jobs idle longer than QUIRE_JOB_IDLE_ARCHIVE_DAYS through their workflow; recent, active and archived jobs stay', async () => {
    const services = await testServices({ taskQueue: `idle-${randomUUID()}` });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const stores = { database: services.database, jobs: services.jobs, events: services.events, hooks: services.webhooks };
    const idleDays = services.config.retention.jobIdleArchiveDays;
    const idle = await seed(stores, { ...job('completed', idleDays + 1), id: newJobId() });
    const failed = await seed(stores, { ...job('failed', idleDays + 3), id: newJobId(), error: { code: 'git_failed', message: 'down' } });
    const recent = await seed(stores, { ...job('completed', idleDays - 1), id: newJobId() });
    const active = await seed(stores, { ...job('active', idleDays + 5), id: newJobId() });
    const archived: string[] = [];
    const sweep = new JobRetention({
      database: stores.database,
      jobs: stores.jobs,
      deliveries: stores.hooks,
      threads: noThreads,
      logger: silent,
      retentionDays: services.config.retention.jobDays,
      idleArchive: {
        days: idleDays,
        archive: async (record) => {
          archived.push(record.id);
          return archiveJobRun(services, record);
        },
      },
      now: () => NOW,
    });
    assert.equal(await sweep.archiveIdle(), 2);
    assert.deepEqual(archived, [failed.id, idle.id], 'least recently changed first');
    for (const record of [idle, failed]) {
      const stored = await stores.jobs.get('docs', record.id);
      assert.equal(stored?.status, 'archived', 'the workflow recorded the archive');
      assert.equal((await stores.events.latest(record.id))?.type, 'job.archived');
      const run = await services.temporal.workflow.getHandle(record.id).describe();
      assert.equal(run.status.name, 'COMPLETED');
    }
    assert.equal((await stores.jobs.get('docs', recent.id))?.status, 'completed');
    assert.equal((await stores.jobs.get('docs', active.id))?.status, 'active');
    // Archived jobs are no longer idle: a second sweep has nothing to do.
    assert.equal(await sweep.archiveIdle(), 0);
  });
});
