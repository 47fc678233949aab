/**
 * The job event feed over the real API: a real worker and activities, the Temporal dev server,
 * real git repositories, and the scripted model standing in for the model provider. The stream is
 * read as a browser's EventSource reads it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { newJobId, type JobEvent, type JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type FakeModelServer } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { openSse, readToEnd, type SseFrame } from '../../support/sse-client.js';
import { startWorker } from '../../support/temporal.js';
import { call, pollJob } from './agent-api.js';

const eventsOf = (frames: SseFrame[]): JobEvent[] => frames.map((f) => JSON.parse(f.data));

describe('job events over server-sent events (real worker, git, Temporal)', function () {
  this.timeout(120_000);
  let model: FakeModelServer;
  let repo: DocsRepo;
  let base: string;
  let admin: string;
  let otherAdmin: string;
  const url = (path: string) => `${base}/v2/agent${path}`;
  const auth = (key = admin) => ({ authorization: `Bearer ${key}` });

  before(async () => {
    model = await startFakeModel([]);
    repo = await createDocsRepo({ pages: 3, withNav: true });
    const services = await testServices({
      taskQueue: `events-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', QUIRE_AGENT_HEARTBEAT_SECONDS: '4' },
    });
    ({ adminKey: admin } = await seedOrg(services, 'acme'));
    ({ adminKey: otherAdmin } = await seedOrg(services, 'other'));
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    base = (await serve(createApp(services))).url;
  });

  let jobId = '';
  let firstTurn: JobEvent[] = [];

  it('streams a running job in order, live, and ends once the job is idle', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const todos = [{ id: '1', content: 'Rename widget on page 2', status: 'in_progress' }];
    model.script(async (_req, index) => {
      if (index === 0) return { toolCalls: [{ name: 'todo_write', arguments: { todos } }] };
      // The model waits until the test has seen the plan on the stream: the stream is live, not replayed at the end.
      if (index === 1) {
        await released;
        return { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'SECRET-LOOKING NEW TEXT' } }] };
      }
      return { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Renamed it on page 2.' } }] };
    });
    const created = await call<JobView>(url('/docs/job'), 'POST', admin, { prompt: 'Say gadget on page 2' });
    assert.equal(created.status, 201);
    jobId = created.body.id;
    const stream = await openSse(url(`/docs/job/${jobId}/events`), auth());
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const frames: SseFrame[] = [];
    for (let f = await stream.next(); f; f = await stream.next()) {
      frames.push(f);
      if (f.event === 'todos.changed') release();
    }
    const events = eventsOf(frames);
    assert.deepEqual(
      events.map((e) => e.type),
      ['turn.started', 'tool.step', 'todos.changed', 'tool.step', 'tool.step', 'turn.finished', 'pull_request.opened', 'job.completed'],
    );
    assert.deepEqual(frames.map((f) => f.id), events.map((_, i) => String(i + 1)), 'ids are the sequence 1, 2, 3…');
    assert.deepEqual(frames.map((f) => f.event), events.map((e) => e.type));
    assert.ok(events.every((e) => e.jobId === jobId && e.projectId === 'docs'));
    assert.deepEqual(events[1]?.data, { turn: 1, step: 1, tool: 'todo_write', ok: true });
    assert.deepEqual(events[2]?.data, { turn: 1, todos });
    assert.deepEqual(events[3]?.data, { turn: 1, step: 2, tool: 'replace_text', path: 'page-2.mdx', ok: true });
    assert.deepEqual(events[5]?.data, { turn: 1, changed: true, summary: 'Renamed it on page 2.', filesChanged: ['page-2.mdx'], stopReason: null });
    assert.match(String(events[6]?.data.url), /\/pulls?\//);
    // Steps are summarised: what the model wrote into the file never reaches the feed.
    assert.ok(!frames.some((f) => f.data.includes('SECRET-LOOKING')), 'no file contents in events');
    const job = await pollJob(base, admin, 'docs', jobId, (j) => j.status !== 'active');
    assert.equal(job.status, 'completed');
    firstTurn = events;
  });

  it('resumes after Last-Event-ID (header or query) without repeating an event', async () => {
    const byHeader = eventsOf(await readToEnd(await openSse(url(`/docs/job/${jobId}/events`), { ...auth(), 'Last-Event-ID': '3' })));
    assert.deepEqual(byHeader, firstTurn.slice(3));
    const byQuery = eventsOf(await readToEnd(await openSse(url(`/docs/job/${jobId}/events?lastEventId=6`), auth())));
    assert.deepEqual(byQuery, firstTurn.slice(6));
    const all = eventsOf(await readToEnd(await openSse(url(`/docs/job/${jobId}/events`), { ...auth(), 'Last-Event-ID': String(firstTurn.length) })));
    assert.deepEqual(all, [], 'nothing after the last event of an idle job: the stream ends at once');
  });

  it('a follow-up turn continues the same sequence: pull_request.updated, then job.completed', async () => {
    model.script([
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-3.mdx', old_text: 'Install the widget 3', new_text: 'Install the gadget 3' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'More', summary: 'Page 3 too.' } }] },
    ]);
    const sent = await call<JobView>(url(`/docs/job/${jobId}/message`), 'POST', admin, { prompt: 'Page 3 too' });
    assert.equal(sent.body.status, 'active');
    // The job is active again once the message is accepted, so the stream follows the new turn to its end.
    const rest = eventsOf(await readToEnd(await openSse(url(`/docs/job/${jobId}/events`), { ...auth(), 'Last-Event-ID': String(firstTurn.length) })));
    assert.deepEqual(rest.map((e) => e.type), ['turn.started', 'tool.step', 'tool.step', 'turn.finished', 'pull_request.updated', 'job.completed']);
    assert.deepEqual(rest.map((e) => e.seq), rest.map((_, i) => firstTurn.length + 1 + i));
    assert.equal(rest[0]?.data.turn, 2);
    firstTurn = [...firstTurn, ...rest];
  });

  it('archive logs job.archived and the stream ends with it', async () => {
    const archived = await call<JobView>(url(`/docs/job/${jobId}/archive`), 'POST', admin);
    assert.equal(archived.body.status, 'archived');
    const events = eventsOf(await readToEnd(await openSse(url(`/docs/job/${jobId}/events`), { ...auth(), 'Last-Event-ID': String(firstTurn.length) })));
    assert.deepEqual(events.map((e) => e.type), ['job.archived']);
  });

  it('answers 400 for a bad Last-Event-ID, 401 without a key, 404 for an unknown job or another organisation', async () => {
    const bad = await call(url(`/docs/job/${jobId}/events`), 'GET', admin, undefined, { 'Last-Event-ID': 'abc' });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { code: string }).code, 'invalid_request');
    assert.equal((await call(url(`/docs/job/${jobId}/events?lastEventId=-1`), 'GET', admin)).status, 400);
    // Beyond the 32-bit sequence numbers the database keeps: no event this stream sent (it failed after the headers on PostgreSQL).
    assert.equal((await call(url(`/docs/job/${jobId}/events`), 'GET', admin, undefined, { 'Last-Event-ID': '2147483648' })).status, 400);
    assert.equal((await call(url(`/docs/job/${jobId}/events`), 'GET', admin, undefined, { 'Last-Event-ID': '99999999999' })).status, 400);
    assert.equal((await call(url(`/docs/job/${jobId}/events`), 'GET', null)).status, 401);
    assert.equal((await call(url(`/docs/job/${newJobId()}/events`), 'GET', admin)).status, 404);
    assert.equal((await call(url(`/docs/job/${jobId}/events`), 'GET', otherAdmin)).status, 404);
  });
});
