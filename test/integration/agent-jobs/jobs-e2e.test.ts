/**
 * Agent jobs end to end: the real API over HTTP, a real worker with the real
 * activities, the Temporal dev server, real bare git repositories, and the
 * scripted model standing in for an OpenAI-compatible provider.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { createApp } from '../../../api/app.js';
import { PullStore } from '../../../core/forge/index.js';
import { type JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type FakeModelServer, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker, type RunningWorker } from '../../support/temporal.js';
import { call, pollJob } from './agent-api.js';

const edit = (page: string, from: string, to: string, title: string): Reply[] => [
  { toolCalls: [{ name: 'replace_text', arguments: { path: page, old_text: from, new_text: to } }] },
  { toolCalls: [{ name: 'finish', arguments: { title, summary: `${page}: ${to}` } }] },
];

describe('agent jobs end to end (real worker, git, Temporal)', function () {
  this.timeout(120_000);
  let model: FakeModelServer;
  let repo: DocsRepo;
  let services: Awaited<ReturnType<typeof testServices>>;
  let worker: RunningWorker;
  let base: string;
  let admin: string;
  let limitedAdmin: string;
  const url = (path: string) => `${base}/v2/agent${path}`;

  before(async () => {
    model = await startFakeModel([]);
    repo = await createDocsRepo({ pages: 5, withNav: true, files: { '.quire/AGENTS.md': 'Quire house rule: say gadget, never widget.\n' } });
    services = await testServices({
      taskQueue: `jobs-${randomUUID()}`,
      // The default heartbeat timeout (60 s): a turn stuck in a model call still notices an archive within seconds.
      env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' },
    });
    ({ adminKey: admin } = await seedOrg(services, 'acme'));
    await services.tenants.addOrg('limited', { agentMessagesPerHour: 1 });
    limitedAdmin = (await services.tenants.createKey('limited', 'admin')).secret;
    const project = { repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] };
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', ...project });
    await services.tenants.putProject({ id: 'small', orgId: 'limited', ...project });
    worker = await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    base = (await serve(createApp(services))).url;
  });

  const create = async (prompt: string, project = 'docs', key = admin) => {
    const reply = await call<JobView>(url(`/${project}/job`), 'POST', key, { prompt });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body;
  };
  const settled = (job: JobView) => job.status !== 'active';

  it('create → completed with a prLink whose branch holds the edit; a follow-up keeps the prLink and adds a commit', async () => {
    const todos = [
      { id: '1', content: 'Rename widget on page 2', status: 'completed' },
      { id: '2', content: 'Check page 3', status: 'pending' },
    ];
    model.script([{ toolCalls: [{ name: 'todo_write', arguments: { todos } }] }, ...edit('page-2.mdx', 'Install the widget 2', 'Install the gadget 2', 'Say gadget')]);
    const created = await create('Say gadget on page 2');
    assert.deepEqual(
      [created.branch, created.title, created.summary, created.turns, created.filesChanged, created.stopReason, created.todos],
      [`quire/${created.id}`, null, null, 0, [], null, []],
      'a new job has said nothing yet',
    );
    const done = await pollJob(base, admin, 'docs', created.id, settled);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.match(done.prLink ?? '', /\/pulls?\//);
    const branch = `quire/${created.id}`;
    // The job says what it did: its branch, the PR's title, the model's message, the plan as written.
    assert.deepEqual(
      [done.branch, done.title, done.summary, done.turns, done.filesChanged, done.stopReason, done.todos],
      [branch, 'Say gadget', 'page-2.mdx: Install the gadget 2', 1, ['page-2.mdx'], null, todos],
    );
    // The repository's instructions reached the model, and the pull request says so.
    assert.match(String(model.requests.at(-3)?.body.messages[0]?.content), /From \.quire\/AGENTS\.md:\n\nQuire house rule/);
    const opened = await new PullStore(services.database).findOpen('docs', branch);
    assert.match(opened?.body ?? '', /### Repository instructions\n\nThe agent followed `\.quire\/AGENTS\.md`\./);
    assert.match((await repo.readFile(branch, 'page-2.mdx')) ?? '', /Install the gadget 2/);
    assert.equal(await repo.git(repo.bareDir, 'rev-list', '--count', `${repo.branch}..${branch}`), '1');

    model.script(edit('page-3.mdx', 'Install the widget 3', 'Install the gadget 3', 'Say gadget on 3 too'));
    const key = { 'Idempotency-Key': `follow-up-${created.id}` };
    const sent = await call<JobView>(url(`/docs/job/${created.id}/message`), 'POST', admin, { prompt: 'Page 3 as well' }, key);
    assert.equal(sent.status, 200);
    // A client retrying the same POST (same Idempotency-Key) does not start a second turn.
    const retried = await call<JobView>(url(`/docs/job/${created.id}/message`), 'POST', admin, { prompt: 'Page 3 as well' }, key);
    assert.equal(retried.status, 200);
    assert.equal(sent.body.status, 'active');
    assert.equal(sent.body.prLink, null, 'the seed: prLink is null while active');
    // Polling right after the message never sees the previous turn's `completed`.
    const followed = await pollJob(base, admin, 'docs', created.id, settled);
    assert.equal(followed.status, 'completed');
    assert.equal(followed.prLink, done.prLink);
    assert.deepEqual(
      [followed.title, followed.summary, followed.turns, followed.filesChanged, followed.todos],
      ['Say gadget', 'page-3.mdx: Install the gadget 3', 2, ['page-2.mdx', 'page-3.mdx'], todos],
      'the PR keeps its title; the plan stays until the model writes another',
    );
    assert.equal(await repo.git(repo.bareDir, 'rev-list', '--count', `${repo.branch}..${branch}`), '2');
    assert.match((await repo.readFile(branch, 'page-3.mdx')) ?? '', /Install the gadget 3/);
    const pull = await new PullStore(services.database).findOpen('docs', branch);
    assert.ok(pull && done.prLink && new URL(done.prLink).pathname.endsWith(`/pulls/${pull.number}`), 'one pull request for the branch, the one linked');

    // The job store holds the same state, and lists it.
    const listed = await call<{ jobs: JobView[] }>(url('/docs/jobs?status=completed'), 'GET', admin);
    assert.deepEqual(listed.body.jobs.find((j) => j.id === created.id), followed);
  });

  it('a job whose repository cannot be cloned: its run is Failed in Temporal with the reason, GET says failed; a follow-up starts the next run', async () => {
    await services.tenants.putProject({ id: 'broken', orgId: 'acme', repository: `${repo.bareDir}-missing`, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    const created = await create('Say gadget', 'broken');
    const failed = await pollJob(base, admin, 'broken', created.id, settled);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'repository_not_found');
    const first = services.temporal.workflow.getHandle(created.id);
    // The run ends just after it recorded the job failed.
    const failure = await first.result().then(() => undefined, (err: unknown) => err);
    const described = await first.describe();
    assert.equal(described.status.name, 'FAILED', "Temporal's own status of the run");
    assert.ok(failure instanceof WorkflowFailedError && failure.cause instanceof ApplicationFailure);
    assert.equal(failure.cause.message, failed.error?.message, 'the reason is the failure message');
    assert.equal(failure.cause.type, 'repository_not_found');
    assert.equal(await described.staticSummary(), 'Say gadget');

    const followUp = await call<JobView>(url(`/broken/job/${created.id}/message`), 'POST', admin, { prompt: 'Try once more' });
    assert.equal(followUp.status, 200);
    assert.equal(followUp.body.status, 'active');
    const again = await pollJob(base, admin, 'broken', created.id, settled);
    assert.equal(again.status, 'failed');
    assert.equal(again.turns, 2);
    await services.temporal.workflow.getHandle(created.id).result().catch(() => undefined);
    const second = await services.temporal.workflow.getHandle(created.id).describe();
    assert.notEqual(second.runId, described.runId, 'a second run under the same workflow id');
    assert.equal(second.workflowId, created.id);
    assert.equal(second.status.name, 'FAILED');
    assert.equal(await second.staticSummary(), 'Try once more', "the run's summary names its turn's request");
  });

  it('a job that changes nothing completes with a null prLink', async () => {
    model.script([{ toolCalls: [{ name: 'search_text', arguments: { query: 'widget 4' } }] }, { text: 'Already correct.' }]);
    const created = await create('Check page 4 mentions widget 4');
    const done = await pollJob(base, admin, 'docs', created.id, settled);
    assert.equal(done.status, 'completed');
    assert.equal(done.prLink, null);
    assert.equal(done.summary, 'No files were changed. Already correct.');
    assert.deepEqual([done.turns, done.filesChanged, done.stopReason], [1, [], null]);
    assert.equal(await repo.head(`quire/${created.id}`), undefined);
  });

  it('a turn a bound stopped says which one, and keeps what it changed', async () => {
    // One reply spends the whole token budget (QUIRE_AGENT_MAX_TOKENS, 400,000 by default).
    model.script([
      {
        toolCalls: [{ name: 'replace_text', arguments: { path: 'page-4.mdx', old_text: 'Install the widget 4', new_text: 'Install the gadget 4' } }],
        usage: { prompt: 400_000, completion: 1 },
      },
    ]);
    const created = await create('Say gadget on page 4');
    const done = await pollJob(base, admin, 'docs', created.id, settled);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.stopReason, 'max_tokens');
    assert.deepEqual(done.filesChanged, ['page-4.mdx']);
    assert.equal(done.title, 'Say gadget on page 4', 'no finish: the title comes from the prompt');
    assert.match((await repo.readFile(`quire/${created.id}`, 'page-4.mdx')) ?? '', /Install the gadget 4/);
  });

  it('archive stops a running turn; a later message gets 409', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    // The model never answers, so the turn is still running when the archive arrives.
    model.script(async () => {
      started();
      await new Promise((r) => setTimeout(r, 60_000));
      return { text: 'too late' };
    });
    const created = await create('Rewrite everything slowly');
    await running;
    const archived = await call<JobView>(url(`/docs/job/${created.id}/archive`), 'POST', admin);
    assert.equal(archived.status, 200);
    assert.equal(archived.body.status, 'archived');
    assert.ok(archived.body.archivedAt);
    assert.equal((await call<JobView>(url(`/docs/job/${created.id}`), 'GET', admin)).body.status, 'archived');
    const again = await call<JobView>(url(`/docs/job/${created.id}/archive`), 'POST', admin);
    assert.deepEqual(again.body, archived.body);
    const late = await call(url(`/docs/job/${created.id}/message`), 'POST', admin, { prompt: 'more' });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'conflict');
    // The workflow ends once the turn has really stopped; nothing was pushed.
    const result = await services.temporal.workflow.getHandle(created.id).result();
    assert.equal(result.status, 'archived');
    assert.equal(await repo.head(`quire/${created.id}`), undefined);
  });

  it('the 2nd follow-up in an hour is refused with 429 when the organisation allows 1', async () => {
    model.script([{ text: 'Nothing to do.' }, { text: 'Nothing to do.' }]);
    const created = await create('Look around', 'small', limitedAdmin);
    await pollJob(base, limitedAdmin, 'small', created.id, settled);
    const first = await call(url(`/small/job/${created.id}/message`), 'POST', limitedAdmin, { prompt: 'again' });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-remaining'), '0');
    const second = await call(url(`/small/job/${created.id}/message`), 'POST', limitedAdmin, { prompt: 'and again' });
    assert.equal(second.status, 429);
    assert.equal(second.headers.get('ratelimit-limit'), '1');
    assert.ok(second.headers.get('retry-after'));
    // Let the accepted follow-up finish before the next test scripts the model.
    await pollJob(base, limitedAdmin, 'small', created.id, settled);
  });

  it('GET answers with no worker running, and from the job store once Temporal has forgotten the job', async () => {
    model.script(edit('page-5.mdx', 'Install the widget 5', 'Install the gizmo 5', 'Gizmo'));
    const created = await create('Say gizmo on page 5');
    const done = await pollJob(base, admin, 'docs', created.id, settled);
    // GET reads the database, where the workflow recorded the state.
    const store = services.jobs;
    assert.equal((await store.get('docs', created.id))?.status, 'completed');
    await worker.stop();
    const got = await call<JobView>(url(`/docs/job/${created.id}`), 'GET', admin);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, done);
    // Deleting the execution is what namespace retention does after the workflow closes.
    await services.temporal.workflowService.deleteWorkflowExecution({
      namespace: 'default',
      workflowExecution: { workflowId: created.id },
    });
    let fromStore: JobView | undefined;
    for (let i = 0; i < 100; i++) {
      const reply = await call<JobView>(url(`/docs/job/${created.id}`), 'GET', admin);
      assert.equal(reply.status, 200);
      fromStore = reply.body;
      const described = await services.temporal.workflow.getHandle(created.id).describe().catch(() => undefined);
      if (!described) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(fromStore?.status, 'completed');
    assert.deepEqual(fromStore, done, 'the job store keeps every field GET shows');
    assert.equal(done.summary, 'page-5.mdx: Install the gizmo 5');
    assert.equal((await store.get('docs', created.id))?.status, 'completed');
  });
});
