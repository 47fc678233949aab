/**
 * Production mode: two API processes and two worker processes (the built entry points, as
 * production starts them) over one PostgreSQL, one redis-server and the Temporal dev server.
 * Whatever one API accepts, the other reads back; PostgreSQL stopped for 5 s under load from both
 * APIs yields successes or 503s with Retry-After and a code, never a 500 or a dropped connection,
 * and afterwards every accepted job completes with one pull request and every answered message is
 * in its thread.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PullStore } from '../../../core/forge/index.js';
import { openMigratedDatabase, type Database } from '../../../core/db/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/index.js';
import { createTenantStore } from '../../../core/tenants/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { SITE } from '../assistant/site.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { startPostgres, type PostgresServer } from '../../support/postgres.js';
import { freePort, startRedis } from '../../support/redis.js';
import { openSse, readToEnd } from '../../support/sse-client.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { REPO_ROOT, temporalEnv } from '../../support/temporal.js';
import { spawnBuilt, spawnWorker, type WorkerProcess } from '../../support/worker-process.js';

const API_MAIN = path.join(REPO_ROOT, 'dist', 'api', 'server.js');
const PROJECT = 'docs';
const DOMAIN = 'docs';

/** The model: an agent turn edits page 1 then finishes; an assistant question gets a short answer. */
function modelReply(req: RecordedRequest): Reply {
  const agent = req.body.tools?.some((t) => t.function.name === 'replace_text') ?? false;
  if (!agent) return { text: 'Install it with the installer, as the docs say.' };
  const edited = req.body.messages.some((m) => m.role === 'tool');
  return edited
    ? { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Page 1 says gadget.' } }] }
    : { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] };
}

interface ApiProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** Starts the built API entry point (`node dist/api/server.js`) and waits until it is ready. */
async function spawnApi(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const { child, output } = spawnBuilt(API_MAIN, { HOST: '127.0.0.1', PORT: String(port), QUIRE_METRICS_PORT: '0', ...env });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
    if (child.exitCode !== null || i > 600) throw new Error(`the API did not become ready:\n${output()}`);
    await sleep(100);
  }
  return { url, child, output };
}

/** One assistant question; returns the response and its whole body (the stream read to its end). */
async function ask(base: string, key: string, question: string): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${base}/discovery/v2/assistant/${DOMAIN}/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ fp: 'prod-test', messages: [{ id: `u_${randomUUID()}`, role: 'user', parts: [{ type: 'text', text: question }] }] }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

interface Outcome {
  what: string;
  status: number | 'connection error';
  detail: string;
}

describe('production mode: two APIs and two workers over one PostgreSQL, Redis and Temporal', function () {
  this.timeout(900_000);
  let pg: PostgresServer;
  let database: Database;
  let repo: DocsRepo;
  let apis: ApiProcess[];
  let workers: WorkerProcess[];
  let adminKey: string;
  let assistantKey: string;

  before(async () => {
    pg = await startPostgres();
    const databaseUrl = await pg.createDatabase();
    const redis = await startRedis();
    const temporal = await temporalEnv();
    const model = await startFakeModel(modelReply);
    repo = await createDocsRepo({ pages: 3, withNav: true });

    database = await openMigratedDatabase({ dialect: 'postgres', url: databaseUrl });
    onSuiteEnd(() => database.close());
    const tenants = createTenantStore(database);
    // Limits out of the load's reach: on a fast machine the outage test's clients create more than the default 100 jobs an hour.
    await tenants.addOrg('acme', { agentCreatesPerHour: 100_000, agentMessagesPerHour: 100_000 });
    adminKey = (await tenants.createKey('acme', 'admin')).secret;
    assistantKey = (await tenants.createKey('acme', 'assistant')).secret;
    await tenants.putProject({ id: PROJECT, orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await tenants.putDomain({ id: DOMAIN, orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false });

    // The APIs answer from the embedded index in their data directory: written once, before they start.
    const apiDataDir = await tempDir('quire-prod-api-');
    await new EmbeddedDocIndex(path.join(apiDataDir, 'index')).applyChanges(DOMAIN, { upserts: SITE, removals: [] });

    const common = {
      QUIRE_DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: `prod-${randomUUID()}`,
      QUIRE_MODEL_BASE_URL: model.baseUrl,
      QUIRE_MODEL_API_KEY: 'sk-test-model',
      QUIRE_MODEL: 'test-model',
      QUIRE_EMBEDDER: 'none',
      QUIRE_PUBLIC_URL: 'http://quire.example.test',
    };
    workers = [];
    for (let i = 0; i < 2; i++) workers.push(spawnWorker({ ...common, QUIRE_DATA_DIR: await tempDir('quire-prod-worker-') }));
    apis = await Promise.all([0, 1].map(() => spawnApi({ ...common, QUIRE_DATA_DIR: apiDataDir })));
  });

  // The processes' logs, without the expected outage's lines, each cut short.
  const brief = (out: string) =>
    out
      .split('\n')
      .filter((l) => !l.includes('DatabaseUnavailableError'))
      .map((l) => l.slice(0, 600))
      .slice(-40)
      .join('\n');
  const logsOnFailure = () => [...apis.map((a, i) => `--- api ${i + 1}\n${brief(a.output())}`), ...workers.map((w, i) => `--- worker ${i + 1}\n${brief(w.output())}`)].join('\n');

  const completed = async (base: string, id: string): Promise<JobView> => {
    const done = await pollJob(base, adminKey, PROJECT, id, (j) => j.status !== 'active', 300_000).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${logsOnFailure()}`);
    });
    assert.equal(done.status, 'completed', `${JSON.stringify(done)}\n${logsOnFailure()}`);
    return done;
  };

  it('reads back through one API the jobs and threads the other accepted', async () => {
    for (const [from, to] of [[apis[0]!, apis[1]!], [apis[1]!, apis[0]!]] as const) {
      const created = await call<JobView>(`${from.url}/v2/agent/${PROJECT}/job`, 'POST', adminKey, { prompt: 'Say gadget on page 1' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const read = await call<JobView>(`${to.url}/v2/agent/${PROJECT}/job/${created.body.id}`, 'GET', adminKey);
      assert.equal(read.status, 200);
      assert.equal(read.body.id, created.body.id);
      const listed = await call<{ jobs: JobView[] }>(`${to.url}/v2/agent/${PROJECT}/jobs?limit=100`, 'GET', adminKey);
      assert.ok(listed.body.jobs.some((j) => j.id === created.body.id), 'listed by the other API');

      const done = await completed(to.url, created.body.id);
      assert.match(done.prLink ?? '', /\/pulls?\//);
      // The event log, read through the other API, ends with the job's pull request.
      const frames = await readToEnd(await openSse(`${to.url}/v2/agent/${PROJECT}/job/${created.body.id}/events`, { authorization: `Bearer ${adminKey}` }));
      const types = frames.map((f) => f.event);
      assert.ok(types.includes('pr_opened') || frames.some((f) => f.data.includes('/pulls')), `events: ${types.join(', ')}`);

      const answer = await ask(from.url, assistantKey, 'How do I install the widget?');
      assert.equal(answer.status, 200, answer.text);
      const threadId = answer.headers.get('x-thread-id');
      assert.ok(threadId);
      const thread = await waitForThread(to.url, threadId, 1);
      assert.equal(thread.exchanges?.[0]?.question, 'How do I install the widget?');
      assert.match(thread.exchanges?.[0]?.answer ?? '', /installer/);
    }
  });

  const waitForThread = async (base: string, threadId: string, exchanges: number, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const reply = await call<{ exchanges?: Array<{ question: string; answer: string }> }>(`${base}/v1/admin/threads/${threadId}`, 'GET', adminKey);
      if (reply.status === 200 && (reply.body.exchanges?.length ?? 0) >= exchanges) return reply.body;
      if (Date.now() > until) throw new Error(`thread ${threadId} not stored: ${reply.status} ${JSON.stringify(reply.body)}\n${logsOnFailure()}`);
      await sleep(200);
    }
  };

  it('PostgreSQL stopped for 5 s under load: 503s with Retry-After, never a 500; afterwards every accepted job and message is kept', async () => {
    const outcomes: Outcome[] = [];
    const accepted: Array<{ id: string; via: string }> = [];
    const answered: Array<{ threadId: string }> = [];
    let running = true;

    const record = (what: string, status: Outcome['status'], detail: string) => outcomes.push({ what, status, detail });
    const client = async (api: ApiProcess, n: number) => {
      for (let i = 0; running; i++) {
        try {
          const created = await call<JobView & { code?: string }>(`${api.url}/v2/agent/${PROJECT}/job`, 'POST', adminKey, { prompt: `Say gadget (${n}.${i})` });
          record('create', created.status, JSON.stringify(created.body) + ` retry-after=${created.headers.get('retry-after')}`);
          if (created.status === 201) {
            accepted.push({ id: created.body.id, via: api.url });
            const read = await call(`${api.url}/v2/agent/${PROJECT}/job/${created.body.id}`, 'GET', adminKey);
            record('get', read.status, JSON.stringify(read.body) + ` retry-after=${read.headers.get('retry-after')}`);
          }
          const list = await call(`${api.url}/v2/agent/${PROJECT}/jobs?limit=5`, 'GET', adminKey);
          record('list', list.status, JSON.stringify(list.body).slice(0, 300) + ` retry-after=${list.headers.get('retry-after')}`);
          const answer = await ask(api.url, assistantKey, `How do I install the widget? (${n}.${i})`);
          record('ask', answer.status, answer.text.slice(0, 300) + ` retry-after=${answer.headers.get('retry-after')}`);
          const threadId = answer.headers.get('x-thread-id');
          if (answer.status === 200 && threadId && !answer.text.includes('"type":"error"')) answered.push({ threadId });
        } catch (err) {
          record('request', 'connection error', String((err as Error).cause ?? err));
        }
        await sleep(50);
      }
    };
    const load = apis.flatMap((api, a) => [0, 1].map((c) => client(api, a * 10 + c)));
    await sleep(3_000);
    await pg.stop();
    await sleep(5_000);
    await pg.start();
    await sleep(3_000);
    running = false;
    await Promise.all(load);

    const bad = outcomes.filter((o) => o.status === 'connection error' || (o.status >= 500 && o.status !== 503));
    const summary = (list: Outcome[]) => list.slice(0, 10).map((o) => `${o.what} ${o.status}: ${o.detail.slice(0, 400)}`).join('\n');
    assert.equal(bad.length, 0, `no 500, no other 5xx, no dropped connection; ${bad.length} of ${outcomes.length}:\n${summary(bad)}\n${logsOnFailure()}`);
    const unavailable = outcomes.filter((o) => o.status === 503);
    assert.ok(unavailable.length > 0, 'the outage was seen');
    for (const o of unavailable) {
      assert.match(o.detail, /"code":"[a-z_]+"/, `a 503 names its code: ${o.detail}`);
      assert.match(o.detail, /retry-after=\d+/, `a 503 says when to retry: ${o.detail}`);
    }
    const other = outcomes.filter((o) => o.status !== 503 && (o.status as number) >= 400);
    assert.equal(other.length, 0, `no refusal other than the outage:\n${summary(other)}`);
    assert.ok(accepted.length > 0 && answered.length > 0);

    // Every accepted job completes, each with its own single pull request.
    const pulls = new PullStore(database);
    const prLinks = new Set<string>();
    for (const job of accepted) {
      const done = await completed(apis[0]!.url, job.id);
      assert.ok(done.prLink, `job ${job.id} has its pull request`);
      prLinks.add(done.prLink);
    }
    assert.equal(prLinks.size, accepted.length, 'one pull request per job');
    // The first test's two jobs opened pull requests 1 and 2; nothing opened more than one.
    assert.ok(await pulls.get(PROJECT, accepted.length + 2), 'every job opened its pull request');
    assert.equal(await pulls.get(PROJECT, accepted.length + 3), undefined, 'no pull request beyond one per job');
    for (const { threadId } of answered) await waitForThread(apis[1]!.url, threadId, 1);
    // Nothing crashed on the way: every process is the one started.
    for (const p of [...apis, ...workers]) assert.equal(p.child.exitCode ?? p.child.signalCode, null, logsOnFailure());
  });
});
