import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual, promisify } from 'node:util';
import { ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { DOMAIN_POLL_WORKFLOW, domainPollScheduleId, indexWorkflowId, type DomainPollResult, type IndexDomainResult } from '../../../core/contracts/index.js';
import { followSeed, followTaskQueue, syncDomainPollSchedule } from '../../../core/index-runs/index.js';
import { applySeedFile } from '../../../core/tenants/seed-file.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { seedOrg, serve, tempDir, testServices, type SeededOrg } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { spawnWorker } from '../../support/worker-process.js';
import { exampleDocsRepo, type GitDocs } from './git-docs.js';

const run = promisify(execFile);

/**
 * A deployment no forge can reach follows its docs branch by polling: the domain's `pollMinutes`
 * keeps one Temporal Schedule whose poll reads the branch head of a real bare repository and
 * re-indexes (through the real worker) only when the head is not the commit last indexed.
 */
describe('polling a domain’s docs branch', function () {
  this.timeout(120_000);
  let services: ApiServices;
  let url = '';
  let acme: SeededOrg;
  let repo: GitDocs;
  let taskQueue = '';
  const admin = bearerCaller(() => url);

  before(async () => {
    taskQueue = `domain-poll-${randomUUID()}`;
    services = await testServices({ taskQueue });
    acme = await seedOrg(services, 'acme');
    repo = await exampleDocsRepo();
    ({ url } = await serve(createApp(services)));
    await startWorker(services, { taskQueue });
  });

  const scheduleOf = async (domainId: string) => (await temporalEnv()).client.schedule.getHandle(domainPollScheduleId(domainId));
  const head = async () => (await run('git', ['rev-parse', 'main'], { cwd: repo.bareDir })).stdout.trim();

  /** A domain of acme over the repository, polled through the admin API; ids are unique on the shared Temporal server. */
  async function polledDomain(pollMinutes = 5): Promise<string> {
    const id = `poll-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id, orgId: acme.orgId, source: repo.bareDir, branch: 'main', docsPath: '', baseUrl: 'https://docs.acme.test', includeHidden: false });
    const res = await admin('PATCH', `/v2/admin/domains/${id}`, acme.adminKey, { pollMinutes });
    assert.equal(res.status, 200);
    await conforms('/v2/admin/domains/{domainId}', 'patch', res.clone());
    assert.equal(((await res.json()) as { pollMinutes?: number }).pollMinutes, pollMinutes);
    return id;
  }

  /** Fires the domain's schedule now (as its interval would) and answers what that poll did. */
  async function pollNow(domainId: string): Promise<DomainPollResult> {
    const { client } = await temporalEnv();
    const schedule = await scheduleOf(domainId);
    const before = (await schedule.describe()).info.recentActions.length;
    await schedule.trigger();
    for (;;) {
      const actions = (await schedule.describe()).info.recentActions;
      const latest = actions.length > before ? actions.at(-1) : undefined;
      if (latest) return client.workflow.getHandle<() => Promise<DomainPollResult>>(latest.action.workflow.workflowId, latest.action.workflow.firstExecutionRunId).result();
      await sleep(100);
    }
  }

  async function indexRun(domainId: string, runId: string): Promise<IndexDomainResult> {
    const { client } = await temporalEnv();
    return client.workflow.getHandle<() => Promise<IndexDomainResult>>(indexWorkflowId(domainId), runId).result();
  }

  /** The queue a domain's schedule fires on and whether it is paused; undefined when there is no schedule. */
  async function firing(domainId: string): Promise<{ queue: string | undefined; paused: boolean } | undefined> {
    try {
      const { action, state } = await (await scheduleOf(domainId)).describe();
      return { queue: action.type === 'startWorkflow' ? action.taskQueue : undefined, paused: state.paused };
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    }
  }

  /** Waits (10 s at most) until the domain's schedule reads as `expected`: its scheduler takes a change a moment after it is asked. */
  async function readsAs(domainId: string, expected: Awaited<ReturnType<typeof firing>>): Promise<void> {
    let seen = await firing(domainId);
    for (const deadline = Date.now() + 10_000; !isDeepStrictEqual(seen, expected); seen = await firing(domainId)) {
      if (Date.now() > deadline) assert.deepEqual(seen, expected, `the schedule of ${domainId}`);
      await sleep(100);
    }
  }

  const latestIndexRunId = async (domainId: string) => (await (await temporalEnv()).client.workflow.getHandle(indexWorkflowId(domainId)).describe()).runId;
  const search = async (domainId: string, query: string) => (await services.docIndex.search(domainId, { query, pageSize: 5 })).map((hit) => hit.content).join('\n');

  it('keeps one schedule per domain that polls every pollMinutes, overlap skip, starting the poll workflow', async () => {
    const domainId = await polledDomain(15);
    const described = await (await scheduleOf(domainId)).describe();
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, DOMAIN_POLL_WORKFLOW);
    assert.deepEqual(described.action.args, [{ domainId }]);
    assert.equal(described.policies.overlap, 'SKIP');
    const every = described.spec.intervals?.[0]?.every;
    assert.equal(typeof every === 'number' ? every : Number(every), 15 * 60_000);

    // A change of pollMinutes changes the same schedule's interval.
    assert.equal((await admin('PATCH', `/v2/admin/domains/${domainId}`, acme.adminKey, { pollMinutes: 60 })).status, 200);
    const changed = (await (await scheduleOf(domainId)).describe()).spec.intervals?.[0]?.every;
    assert.equal(typeof changed === 'number' ? changed : Number(changed), 60 * 60_000);
  });

  it('re-indexes when the branch has a new commit, and a poll that finds nothing new starts no index run', async () => {
    const domainId = await polledDomain();
    // Never indexed: the first poll indexes the head.
    const first = await pollNow(domainId);
    assert.equal(first.outcome, 'indexing', JSON.stringify(first));
    assert.ok(first.outcome === 'indexing');
    assert.equal(first.head, await head());
    const indexed = await indexRun(domainId, first.runId);
    assert.equal(indexed.commit, first.head);
    assert.ok(indexed.pages > 0);

    // Nothing pushed since: the head is the commit indexed, and no run starts.
    const idle = await pollNow(domainId);
    assert.deepEqual(idle, { outcome: 'unchanged', head: first.head });
    assert.equal(await latestIndexRunId(domainId), first.runId, 'no index run was started');

    // A new commit on the branch: the next poll re-indexes, and search finds the change.
    assert.doesNotMatch(await search(domainId, 'zeppelin'), /zeppelin/);
    await repo.commit({ 'api-reference/rate-limits.mdx': '---\ntitle: Rate limits\n---\n\n## Beyond the limit\n\nRequests beyond the limit wait for the zeppelin.\n' }, 'rate limits by zeppelin');
    const moved = await pollNow(domainId);
    assert.equal(moved.outcome, 'indexing', JSON.stringify(moved));
    assert.ok(moved.outcome === 'indexing');
    assert.equal(moved.head, await head());
    assert.equal(moved.lastIndexed, first.head);
    assert.notEqual(moved.runId, first.runId);
    const second = await indexRun(domainId, moved.runId);
    assert.equal(second.commit, moved.head);
    assert.equal(second.updated, 1, 'the changed page is indexed again');
    assert.match(await search(domainId, 'zeppelin'), /zeppelin/);

    const after = await pollNow(domainId);
    assert.deepEqual(after, { outcome: 'unchanged', head: moved.head });
    assert.equal(await latestIndexRunId(domainId), moved.runId);
  });

  it('backs off from a head whose index run failed, and indexes a new head at once', async () => {
    // A docs folder the branch does not have yet: the head is read, and its index run fails.
    const broken = await exampleDocsRepo();
    const domainId = `poll-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id: domainId, orgId: acme.orgId, source: broken.bareDir, branch: 'main', docsPath: 'site', baseUrl: 'https://docs.acme.test', includeHidden: false, pollMinutes: 5 });
    const { client } = await temporalEnv();
    // The poll workflow started directly, as the schedule would (no schedule: nothing else polls this domain).
    const poll = () => client.workflow.execute<() => Promise<DomainPollResult>>(DOMAIN_POLL_WORKFLOW, { taskQueue, workflowId: `poll-now-${randomUUID()}`, args: [{ domainId }] as never });
    const brokenHead = (await run('git', ['rev-parse', 'main'], { cwd: broken.bareDir })).stdout.trim();

    const first = await poll();
    assert.equal(first.outcome, 'indexing', JSON.stringify(first));
    assert.ok(first.outcome === 'indexing');
    assert.equal(first.head, brokenHead);
    await assert.rejects(indexRun(domainId, first.runId));
    const status = await admin('GET', `/v2/admin/domains/${domainId}/index`, acme.adminKey);
    assert.equal(status.status, 200);
    await conforms('/v2/admin/domains/{domainId}/index', 'get', status.clone());
    const failed = (await status.json()) as { status: string; error: string | null; errorCode: string | null; startedAt: string; pollBackoff: { head: string; failures: number; retryAt: string } | null };
    assert.equal(failed.status, 'failed');
    assert.equal(failed.errorCode, 'docs_folder_missing');
    assert.deepEqual(failed.pollBackoff, { head: brokenHead, failures: 1, retryAt: new Date(Date.parse(failed.startedAt) + 10 * 60_000).toISOString() });

    // The same head again: no new run until the backoff (twice the interval) is over.
    const again = await poll();
    assert.deepEqual(again, { outcome: 'backoff', head: brokenHead, failures: 1, retryAt: failed.pollBackoff?.retryAt });
    assert.equal(await latestIndexRunId(domainId), first.runId, 'no index run was started');

    // A new commit that mends the docs is indexed at the next poll, backoff or not.
    await broken.commit({ 'site/index.mdx': '---\ntitle: Welcome\n---\n\nThe mended docs mention the albatross.\n' }, 'add the docs folder');
    const mended = await poll();
    assert.equal(mended.outcome, 'indexing', JSON.stringify(mended));
    assert.ok(mended.outcome === 'indexing');
    assert.notEqual(mended.head, brokenHead);
    assert.equal(mended.lastIndexed, null);
    const indexed = await indexRun(domainId, mended.runId);
    assert.equal(indexed.commit, mended.head);
    assert.equal(indexed.pages, 1);
    const after = (await (await admin('GET', `/v2/admin/domains/${domainId}/index`, acme.adminKey)).json()) as { status: string; pollBackoff: unknown };
    assert.deepEqual([after.status, after.pollBackoff], ['completed', null]);
    assert.deepEqual(await poll(), { outcome: 'unchanged', head: mended.head });
  });

  it('gives a seed file’s domain its schedule, and deletes it when the file no longer sets pollMinutes', async () => {
    const domainId = `poll-${randomUUID().slice(0, 8)}`;
    const file = path.join(await tempDir('quire-poll-seed-'), 'seed.yaml');
    const seedWith = (pollLine: string) =>
      fs.writeFile(file, ['organisations:', '  - id: acme', '    domains:', `      - id: ${domainId}`, `        source: ${repo.bareDir}`, '        baseUrl: https://docs.acme.test', pollLine].join('\n'));
    // What the API (in the background) and `npm start` do with QUIRE_SEED_FILE at start.
    const applySeed = async () => followSeed((await temporalEnv()).client, taskQueue, services.tenants, await applySeedFile(file, services.tenants, services.webhooks));

    await seedWith('        pollMinutes: 30');
    await applySeed();
    assert.equal((await services.tenants.getDomain(domainId))?.pollMinutes, 30);
    const described = await (await scheduleOf(domainId)).describe();
    assert.equal(described.action.type, 'startWorkflow');
    assert.equal(described.action.workflowType, DOMAIN_POLL_WORKFLOW);
    assert.equal(described.action.taskQueue, taskQueue);
    assert.deepEqual(described.action.args, [{ domainId }]);
    const every = described.spec.intervals?.[0]?.every;
    assert.equal(typeof every === 'number' ? every : Number(every), 30 * 60_000);

    // The file declares the domain whole: applied again without pollMinutes, the domain is no longer polled.
    await seedWith('');
    await applySeed();
    assert.equal((await services.tenants.getDomain(domainId))?.pollMinutes, undefined);
    await assert.rejects((await scheduleOf(domainId)).describe(), ScheduleNotFoundError);
  });

  it('indexes a seed file’s domain again when the file changes its language; with Temporal out of reach, puts the language back for the next start to retry', async () => {
    const domainId = `seed-lang-${randomUUID().slice(0, 8)}`;
    const file = path.join(await tempDir('quire-seed-language-'), 'seed.yaml');
    const seedWith = (language: string) =>
      fs.writeFile(file, ['organisations:', '  - id: acme', '    domains:', `      - id: ${domainId}`, `        source: ${repo.bareDir}`, '        baseUrl: https://docs.acme.test', `        language: ${language}`].join('\n'));
    const { client } = await temporalEnv();
    const runOf = () => client.workflow.getHandle(indexWorkflowId(domainId)).describe().then((d) => d.runId, (err: unknown) => (err instanceof WorkflowNotFoundError ? undefined : Promise.reject(err)));

    // A new domain has nothing indexed: its language is for its first run.
    await seedWith('de');
    const created = await applySeedFile(file, services.tenants, services.webhooks);
    assert.deepEqual(created.languageChanges, []);
    await followSeed(client, taskQueue, services.tenants, created);
    assert.equal(await runOf(), undefined);

    await seedWith('fr');
    const changed = await applySeedFile(file, services.tenants, services.webhooks);
    assert.deepEqual(changed.languageChanges.map((c) => [c.domain.id, c.before, c.domain.language]), [[domainId, 'de', 'fr']]);
    await followSeed(client, taskQueue, services.tenants, changed);
    assert.ok(await runOf(), 'the language change started an index run');
    assert.equal((await services.tenants.getDomain(domainId))?.language, 'fr');

    // The same change with Temporal out of reach: the language is put back, and the next application of the file finds it to change again.
    const offline = await testServices({ withTemporal: false });
    await seedWith('de');
    await applySeedFile(file, offline.tenants, offline.webhooks);
    await seedWith('fr');
    await assert.rejects(followSeed(offline.temporal, taskQueue, offline.tenants, await applySeedFile(file, offline.tenants, offline.webhooks)));
    assert.equal((await offline.tenants.getDomain(domainId))?.language, 'de');
    assert.equal((await applySeedFile(file, offline.tenants, offline.webhooks)).languageChanges.length, 1);
  });

  it('follows a move to another task queue: a schedule firing on the old queue moves, keeping its pause, and a missing one is made', async () => {
    const { client } = await temporalEnv();
    const [moved, missing, here] = [await polledDomain(7), await polledDomain(), await polledDomain()];
    // As a deployment on another queue left them: one fires there (and its operator paused it), one was never made.
    const oldQueue = `old-${randomUUID()}`;
    await syncDomainPollSchedule(client, oldQueue, { id: moved, pollMinutes: 7 });
    await (await scheduleOf(moved)).pause('paused by the operator');
    await (await scheduleOf(missing)).delete();
    // A schedule's scheduler takes a change a moment after it is asked: looked at once it has.
    await readsAs(moved, { queue: oldQueue, paused: true });
    await readsAs(missing, undefined);
    const unpolled = { id: `unpolled-${randomUUID().slice(0, 8)}`, pollMinutes: undefined };
    const moves = await followTaskQueue(client, taskQueue, [{ id: moved, pollMinutes: 7 }, { id: missing, pollMinutes: 5 }, { id: here, pollMinutes: 5 }, unpolled]);
    assert.deepEqual(moves, [
      { domainId: moved, from: oldQueue },
      { domainId: missing, from: undefined },
    ]);
    await readsAs(moved, { queue: taskQueue, paused: true });
    await readsAs(missing, { queue: taskQueue, paused: false });
    await readsAs(here, { queue: taskQueue, paused: false });
    const every = (await (await scheduleOf(moved)).describe()).spec.intervals?.[0]?.every;
    assert.equal(typeof every === 'number' ? every : Number(every), 7 * 60_000);
    await assert.rejects((await scheduleOf(unpolled.id)).describe(), ScheduleNotFoundError);
    // A second look changes nothing: workers starting together do not move a schedule twice.
    assert.deepEqual(await followTaskQueue(client, taskQueue, [{ id: moved, pollMinutes: 7 }, { id: missing, pollMinutes: 5 }]), []);
  });

  it('is followed by a worker at its start: a domain’s schedule left on another queue is moved to its own, and logged', async () => {
    const { client, address } = await temporalEnv();
    const domainId = await polledDomain();
    const oldQueue = `old-${randomUUID()}`;
    await syncDomainPollSchedule(client, oldQueue, { id: domainId, pollMinutes: 5 });
    await readsAs(domainId, { queue: oldQueue, paused: false });
    // A worker of this deployment (its database, its queue) starting after the move.
    const worker = spawnWorker({ TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: taskQueue, QUIRE_DATA_DIR: services.config.dataDir, QUIRE_EMBEDDER: 'none', LOG_LEVEL: 'info' });
    try {
      const lineOf = () => worker.stdout().split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [])).find((l) => l.domainId === domainId);
      for (const deadline = Date.now() + 60_000; !lineOf(); await sleep(200)) {
        if (Date.now() > deadline) throw new Error(`the worker did not move the schedule; its output:\n${worker.output()}`);
      }
      assert.deepEqual([lineOf()?.msg, lineOf()?.from, lineOf()?.taskQueue], ["moved a domain's poll schedule to this worker's task queue", oldQueue, taskQueue]);
      await readsAs(domainId, { queue: taskQueue, paused: false });
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('deletes the schedule when pollMinutes is cleared with null', async () => {
    const domainId = await polledDomain();
    await (await scheduleOf(domainId)).describe();
    const res = await admin('PATCH', `/v2/admin/domains/${domainId}`, acme.adminKey, { pollMinutes: null });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { pollMinutes?: number }).pollMinutes, undefined);
    await assert.rejects((await scheduleOf(domainId)).describe(), ScheduleNotFoundError);
    // Clearing again (nothing to delete) is fine.
    assert.equal((await admin('PATCH', `/v2/admin/domains/${domainId}`, acme.adminKey, { pollMinutes: null })).status, 200);
  });

  it('creates the schedule with the domain and deletes it with the domain', async () => {
    const id = `poll-${randomUUID().slice(0, 8)}`;
    const created = await admin('POST', '/v2/admin/domains', acme.adminKey, { id, source: 'https://git.example.com/acme/docs.git', baseUrl: 'https://docs.acme.test', pollMinutes: 1440 });
    assert.equal(created.status, 201);
    await conforms('/v2/admin/domains', 'post', created.clone());
    assert.equal(((await created.json()) as { pollMinutes?: number }).pollMinutes, 1440);
    assert.equal((await (await scheduleOf(id)).describe()).action.type, 'startWorkflow');
    assert.equal((await admin('DELETE', `/v2/admin/domains/${id}`, acme.adminKey)).status, 204);
    await assert.rejects((await scheduleOf(id)).describe(), ScheduleNotFoundError);
  });

  it('refuses a pollMinutes out of bounds or not a whole number with 400, changing nothing', async () => {
    const domainId = await polledDomain(5);
    for (const pollMinutes of [0, 4, 1441, 7.5, -5, '10', true, {}]) {
      await expectError(await admin('PATCH', `/v2/admin/domains/${domainId}`, acme.adminKey, { pollMinutes }), 400, 'invalid_request', 'pollMinutes');
      const id = `poll-${randomUUID().slice(0, 8)}`;
      await expectError(
        await admin('POST', '/v2/admin/domains', acme.adminKey, { id, source: 'https://git.example.com/acme/docs.git', baseUrl: 'https://docs.acme.test', pollMinutes }),
        400,
        'invalid_request',
        'pollMinutes',
      );
      await assert.rejects((await scheduleOf(id)).describe(), ScheduleNotFoundError);
    }
    const every = (await (await scheduleOf(domainId)).describe()).spec.intervals?.[0]?.every;
    assert.equal(typeof every === 'number' ? every : Number(every), 5 * 60_000);
  });
});
