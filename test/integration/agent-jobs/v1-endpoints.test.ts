/**
 * Mintlify's v1 agent endpoints end to end: the real API over HTTP, a real worker with the real
 * activities, the Temporal dev server, real bare git repositories, and the scripted model standing
 * in for an OpenAI-compatible provider (it records the requests the agent sends).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type FakeModelServer, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { conforms } from '../../support/openapi-conforms.js';
import { startWorker } from '../../support/temporal.js';
import { call } from './agent-api.js';

/** The field names of a session in Mintlify's admin-openapi.json (GET job and each of `allSessions`), as facts. */
const SPEC_SESSION_FIELDS = ['sessionId', 'subdomain', 'branch', 'haulted', 'haultReason', 'pullRequestLink', 'messageToUser', 'todos', 'createdAt'];
const SPEC_TODO_FIELDS = ['content', 'status', 'priority', 'id'];
/** Beyond the published schema, documented in README: the issue asks for it and Mintlify's sessions carry it. */
const EXTENSIONS = ['title'];

interface Session {
  sessionId: string;
  subdomain: string;
  branch: string | null;
  haulted: boolean;
  haultReason?: string;
  pullRequestLink?: string;
  messageToUser?: string;
  todos: Array<Record<string, unknown>>;
  title?: string;
  createdAt: string;
}

interface RunEvent {
  id: string | undefined;
  type: string;
  sessionId: string;
  time: string;
  data: Record<string, unknown>;
}

/** The stream's events as a client that reads `id:` and `data:` lines sees them; comments (keep-alives) are skipped. */
function runEvents(text: string): RunEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split('\n');
      assert.ok(!lines.some((l) => l.startsWith('event:')), 'no event names: data-line readers see every event');
      const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length) ?? '';
      return { id: lines.find((l) => l.startsWith('id: '))?.slice('id: '.length), ...JSON.parse(data) };
    });
}

function assertSpecFields(session: Session): void {
  for (const field of Object.keys(session)) assert.ok([...SPEC_SESSION_FIELDS, ...EXTENSIONS].includes(field), `${field} is a field of the spec's session`);
  for (const todo of session.todos) for (const field of Object.keys(todo)) assert.ok(SPEC_TODO_FIELDS.includes(field), `todos[].${field} is in the spec`);
}

describe("Mintlify's v1 agent endpoints (real worker, git, Temporal)", function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let repo: DocsRepo;
  let services: Awaited<ReturnType<typeof testServices>>;
  let base: string;
  let admin: string;
  let limitedAdmin: string;
  const url = (path: string) => `${base}/v1/agent${path}`;

  before(async () => {
    model = await startFakeModel([]);
    repo = await createDocsRepo({ pages: 4, withNav: true });
    services = await testServices({
      taskQueue: `v1-${randomUUID()}`,
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
    });
    ({ adminKey: admin } = await seedOrg(services, 'acme'));
    await services.tenants.addOrg('limited', { agentCreatesPerHour: 1 });
    limitedAdmin = (await services.tenants.createKey('limited', 'admin')).secret;
    const project = { repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'listed', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'gone', orgId: 'acme', ...project, repository: `${repo.bareDir}-missing` });
    await services.tenants.putProject({ id: 'small', orgId: 'limited', ...project });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    base = (await serve(createApp(services))).url;
  });

  /** POSTs a v1 create and reads its stream to the end. */
  const start = async (project: string, body: unknown, key = admin) => {
    const res = await fetch(url(`/${project}/job`), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { res, text };
  };
  const session = async (project: string, id: string) => {
    const reply = await call<Session>(url(`/${project}/job/${id}`), 'GET', admin);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };

  it('streams a run to its end, with the session and branch headers; system text reaches the model; a new branch is created and pushed', async () => {
    const todos = [{ id: '1', content: 'Rename widget on page 2', status: 'completed' }];
    const replies: Reply[] = [
      { toolCalls: [{ name: 'todo_write', arguments: { todos } }] },
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'Install the gadget 2' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Page 2 now says gadget.' } }] },
    ];
    model.script(replies);
    const asked = model.requests.length;
    const { res, text } = await start('docs', {
      branch: 'docs/say-gadget',
      messages: [
        { role: 'system', content: 'House rule from the client: say gadget.' },
        { role: 'user', content: 'Which pages say widget?' },
        { role: 'assistant', content: 'Page 2 does.' },
        { role: 'user', content: 'Say gadget on page 2' },
      ],
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const id = res.headers.get('x-session-id') ?? '';
    assert.match(id, /^job_[a-z0-9]{20}$/);
    assert.equal(res.headers.get('x-branch-name'), 'docs/say-gadget');
    assert.ok(res.headers.get('x-message-id'));
    // The stream ended only once the job was idle: the session says so right away.
    const done = await session('docs', id);
    assert.equal(done.haulted, true, JSON.stringify(done));
    const events = runEvents(text);
    assert.deepEqual(
      events.map((e) => e.type),
      ['turn.started', 'tool.step', 'todos.changed', 'tool.step', 'tool.step', 'turn.finished', 'pull_request.opened', 'job.completed'],
    );
    assert.deepEqual(events.map((e) => e.id), events.map((_, i) => String(i + 1)));
    assert.ok(events.every((e) => e.sessionId === id && !Number.isNaN(Date.parse(e.time))));
    assert.deepEqual(events[2]?.data, { turn: 1, todos });

    const first = model.requests[asked]?.body.messages ?? [];
    assert.match(String(first[0]?.content), /documentation agent[\s\S]*The client who started this job adds these instructions:\n\nHouse rule from the client: say gadget\.$/);
    assert.deepEqual(
      first.slice(1, 4).map((m) => [m.role, m.content]),
      [
        ['user', 'Which pages say widget?'],
        ['assistant', 'Page 2 does.'],
        ['user', 'Say gadget on page 2'],
      ],
      'earlier messages come first, in order; the last user message is the prompt',
    );

    assert.match((await repo.readFile('docs/say-gadget', 'page-2.mdx')) ?? '', /Install the gadget 2/);
    assert.equal(await repo.git(repo.bareDir, 'rev-list', '--count', `${repo.branch}..docs/say-gadget`), '1');
    assert.deepEqual(
      { ...done, createdAt: undefined, pullRequestLink: undefined },
      {
        sessionId: id,
        subdomain: 'docs',
        branch: 'docs/say-gadget',
        haulted: true,
        haultReason: 'completed',
        messageToUser: 'Page 2 now says gadget.',
        todos,
        title: 'Say gadget',
        createdAt: undefined,
        pullRequestLink: undefined,
      },
    );
    assert.match(done.pullRequestLink ?? '', /\/pulls?\//);
    assert.ok(!Number.isNaN(Date.parse(done.createdAt)));
    assertSpecFields(done);
    // v2 reads the same job, with its own names.
    const v2 = await call<JobView>(`${base}/v2/agent/docs/job/${id}`, 'GET', admin);
    assert.deepEqual([v2.body.branch, v2.body.prLink, v2.body.summary], ['docs/say-gadget', done.pullRequestLink, done.messageToUser]);
  });

  it('an existing branch is worked on where it stands, and the system text comes back on a follow-up turn', async () => {
    // A branch someone already pushed to: the agent's commit goes on top of theirs.
    const work = repo.seedDir;
    await repo.git(work, 'checkout', '-q', '-B', 'docs/started', repo.branch);
    await repo.git(work, 'commit', '-q', '--allow-empty', '-m', 'Started by a person');
    await repo.git(work, 'push', '-q', 'origin', 'docs/started');
    await repo.git(work, 'checkout', '-q', repo.branch);
    model.script([
      { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-3.mdx', old_text: 'Install the widget 3', new_text: 'Install the gizmo 3' } }] },
      { toolCalls: [{ name: 'finish', arguments: { title: 'Gizmo', summary: 'Page 3 says gizmo.' } }] },
      { text: 'Nothing more to change.' },
    ]);
    const asked = model.requests.length;
    const { res } = await start('docs', { branch: 'docs/started', asDraft: true, messages: [{ role: 'system', content: 'Keep it short.' }, { role: 'user', content: 'Say gizmo on page 3' }] });
    assert.equal(res.status, 200);
    const id = res.headers.get('x-session-id') ?? '';
    assert.equal((await session('docs', id)).haultReason, 'completed');
    assert.equal(await repo.git(repo.bareDir, 'log', '--format=%s', `${repo.branch}..docs/started`), 'Gizmo\nStarted by a person');

    // A follow-up through v2: the client's system text still reaches the model, the earlier messages do not repeat.
    const sent = await call(`${base}/v2/agent/docs/job/${id}/message`, 'POST', admin, { prompt: 'Anything else?' });
    assert.equal(sent.status, 200);
    for (;;) {
      if ((await session('docs', id)).haulted) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const followUp = model.requests.slice(asked).at(-1)?.body.messages ?? [];
    assert.match(String(followUp[0]?.content), /adds these instructions:\n\nKeep it short\.$/);
    assert.deepEqual(followUp.slice(1).map((m) => m.content), ['Anything else?']);
  });

  it('a job whose repository is missing halts as github_missconfigured with the reason for the user', async () => {
    const { res, text } = await start('gone', { messages: [{ role: 'user', content: 'Fix page 1' }] });
    assert.equal(res.status, 200);
    assert.deepEqual(runEvents(text).map((e) => e.type), ['turn.started', 'turn.finished', 'job.failed']);
    const id = res.headers.get('x-session-id') ?? '';
    assert.equal(res.headers.get('x-branch-name'), `quire/${id}`);
    const halted = await session('gone', id);
    assert.deepEqual([halted.haulted, halted.haultReason, halted.pullRequestLink], [true, 'github_missconfigured', undefined]);
    assert.ok(halted.messageToUser);
    assertSpecFields(halted);
  });

  it('lists sessions newest first, with skip and take', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      model.script([{ text: `Nothing to change (${n}).` }]);
      const { res, text } = await start('listed', { messages: [{ role: 'user', content: `Check page ${n}` }] });
      assert.deepEqual(runEvents(text).map((e) => e.type), ['turn.started', 'turn.finished', 'job.completed']);
      ids.push(res.headers.get('x-session-id') ?? '');
    }
    const newestFirst = [...ids].reverse();
    const list = async (query: string) => {
      const reply = await call<{ allSessions: Session[] }>(url(`/listed/jobs${query}`), 'GET', admin);
      assert.equal(reply.status, 200, query);
      assert.deepEqual(Object.keys(reply.body), ['allSessions']);
      return reply.body.allSessions;
    };
    assert.deepEqual((await list('')).map((s) => s.sessionId), newestFirst);
    assert.deepEqual((await list('?take=2')).map((s) => s.sessionId), newestFirst.slice(0, 2));
    assert.deepEqual((await list('?skip=1&take=1')).map((s) => s.sessionId), [newestFirst[1]]);
    assert.deepEqual(await list('?skip=3'), []);
    const all = await list('?skip=0&take=100');
    assert.equal(all[2]?.messageToUser, 'No files were changed. Nothing to change (1).');
    for (const s of all) assertSpecFields(s);
    assert.deepEqual(all[0], await session('listed', newestFirst[0] ?? ''));
    // The OpenAPI document describes what the server really answers.
    const get = (path: string) => fetch(url(path), { headers: { authorization: `Bearer ${admin}` } });
    await conforms('/v1/agent/{projectId}/jobs', 'get', await get('/listed/jobs?take=3'));
    await conforms('/v1/agent/{projectId}/job/{id}', 'get', await get(`/listed/job/${newestFirst[0] ?? ''}`));
    await conforms('/v1/agent/{projectId}/jobs', 'get', await get('/listed/jobs?take=0'));
    await conforms('/v1/agent/{projectId}/job/{id}', 'get', await get('/listed/job/job_zzzzzzzzzzzzzzzzzzzz'));
  });

  it('spends the same hourly create allowance as v2: 429 once it is spent', async () => {
    model.script([{ text: 'Nothing to do.' }]);
    const first = await start('small', { messages: [{ role: 'user', content: 'Look around' }] }, limitedAdmin);
    assert.equal(first.res.status, 200);
    assert.equal(first.res.headers.get('ratelimit-remaining'), '0');
    const v2 = await call(`${base}/v2/agent/small/job`, 'POST', limitedAdmin, { prompt: 'And again' });
    assert.equal(v2.status, 429);
    const second = await call(url('/small/job'), 'POST', limitedAdmin, { messages: [{ role: 'user', content: 'And again' }] });
    assert.equal(second.status, 429);
    assert.equal(second.body.code, 'rate_limited');
    assert.ok(second.headers.get('retry-after'));
  });
});
