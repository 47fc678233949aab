import assert from 'node:assert/strict';
import * as v from 'valibot';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import { LONE_SURROGATE } from '../../../core/unicode.js';
import { boundSummary, boundTodos, isJobId, MAX_SUMMARY_CHARS, MAX_TODO_CHARS, MAX_TODOS, newJobId, parseJobRecord, publicRepository, toJobView, type JobRecord } from '../../../core/jobs/index.js';
import { chooseModel } from '../../../api/agent/choose-model.js';
import { JobViewSchema } from '../../../api/agent/schemas.js';
import { loadConfig } from '../../../core/config.js';
import type { Project } from '../../../core/tenants/index.js';
import { ModelNotConfiguredError, QuireError } from '../../../core/errors.js';

const base: JobRecord = {
  id: 'job_aaaaaaaaaaaaaaaaaaaa',
  projectId: 'docs',
  status: 'completed',
  source: { repository: 'https://example.com/docs.git', ref: 'main' },
  model: 'gpt-test',
  prLink: 'https://example.com/pr/1',
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  error: { code: 'model_unavailable', message: 'earlier failure' },
  draft: false,
  revision: 4,
  branch: 'quire/job_aaaaaaaaaaaaaaaaaaaa',
  title: 'Say gadget',
  summary: 'Page 2 now says gadget.',
  turns: 2,
  filesChanged: ['page-2.mdx'],
  stopReason: 'max_steps',
  todos: [{ id: '1', content: 'Edit page 2', status: 'completed' }],
};

describe('agent job record', () => {
  it('shows the repository as its users know it: credentials stripped, a server folder named by its project', () => {
    assert.equal(publicRepository('https://x-access-token:ghp_secret@github.com/acme/docs.git', 'docs'), 'https://github.com/acme/docs.git');
    assert.equal(publicRepository('https://token@github.com/acme/docs.git', 'docs'), 'https://github.com/acme/docs.git');
    // A password that holds an @ of its own loses all of it, up to the last @ before the host.
    assert.equal(publicRepository('https://deploy:p@ss@git.example.com/acme/docs.git', 'docs'), 'https://git.example.com/acme/docs.git');
    assert.equal(publicRepository('https://github.com/acme/docs.git', 'docs'), 'https://github.com/acme/docs.git');
    assert.equal(publicRepository('git@github.com:acme/docs.git', 'docs'), 'git@github.com:acme/docs.git');
    assert.equal(publicRepository('deploy:s3cret@git.example.com:acme/docs.git', 'docs'), 'git.example.com:acme/docs.git');
    // A folder on the server is shown as the project's name, never as a path.
    assert.equal(publicRepository('/srv/repos/docs.git', 'docs'), 'docs');
    assert.equal(publicRepository('file:///srv/repos/docs.git', 'docs'), 'docs');
    assert.equal(publicRepository('../repos/docs.git', 'docs'), 'docs');
  });

  it('shows prLink only when the job is not active, and error only when failed', () => {
    const completed = toJobView(base);
    assert.equal(completed.prLink, 'https://example.com/pr/1');
    assert.equal(completed.error, undefined);
    assert.equal('revision' in completed, false);
    assert.equal('projectId' in completed, false);
    assert.equal(toJobView({ ...base, status: 'active' }).prLink, null);
    assert.deepEqual(toJobView({ ...base, status: 'failed' }).error, base.error);
  });

  it('shows what the job did: branch, title, summary, turns, files, stop reason and todos', () => {
    const view = toJobView(base);
    assert.equal(view.branch, 'quire/job_aaaaaaaaaaaaaaaaaaaa');
    assert.equal(view.title, 'Say gadget');
    assert.equal(view.summary, 'Page 2 now says gadget.');
    assert.equal(view.turns, 2);
    assert.deepEqual(view.filesChanged, ['page-2.mdx']);
    assert.equal(view.stopReason, 'max_steps');
    assert.deepEqual(view.todos, [{ id: '1', content: 'Edit page 2', status: 'completed' }]);
  });

  it('reads a record stored before jobs said what they did, with the fields at "nothing yet"', () => {
    const { branch: _b, title: _t, summary: _s, turns: _n, filesChanged: _f, stopReason: _r, todos: _d, ...old } = base;
    const read = parseJobRecord(JSON.parse(JSON.stringify(old)));
    assert.ok(read);
    assert.equal(read.branch, 'quire/job_aaaaaaaaaaaaaaaaaaaa');
    assert.deepEqual([read.title, read.summary, read.turns, read.filesChanged, read.stopReason, read.todos], [null, null, 0, [], null, []]);
    assert.equal(parseJobRecord({ ...base, todos: [{ id: '1', content: 'x', status: 'doing' }] }), undefined, 'an unknown todo status is not a record');
  });

  it('reads a stored record back as it was written, and gives each old record lists of its own', () => {
    assert.deepEqual(parseJobRecord(JSON.parse(JSON.stringify(base))), base);
    const { filesChanged: _f, todos: _d, ...old } = base;
    const first = parseJobRecord(old);
    const second = parseJobRecord(old);
    assert.ok(first && second);
    first.filesChanged.push('page-1.mdx');
    first.todos.push({ id: '2', content: 'More', status: 'pending' });
    assert.deepEqual([second.filesChanged, second.todos], [[], []]);
  });

  it('answers a job view the API schema (the served document’s Job) accepts as it is', () => {
    const failed: JobRecord = { ...base, status: 'failed' };
    for (const record of [base, failed, { ...base, status: 'active' as const }, { ...base, title: null, summary: null, stopReason: null, archivedAt: base.updatedAt }]) {
      const view = toJobView(record);
      const parsed = v.safeParse(JobViewSchema, view);
      assert.ok(parsed.success, JSON.stringify(parsed.issues));
      assert.deepEqual(parsed.output, view, 'nothing the view says is dropped or changed');
    }
    assert.deepEqual(Object.keys(JobViewSchema.entries).sort(), Object.keys(toJobView(failed)).sort(), 'the schema names every field the view has');
  });

  it('bounds the summary and the todo list that travel through workflow history', () => {
    assert.equal(boundSummary(`  ${'s'.repeat(MAX_SUMMARY_CHARS + 50)}  `).length, MAX_SUMMARY_CHARS);
    // Cut between characters: PostgreSQL refuses a lone surrogate in the job's record.
    const emoji = boundSummary('😀'.repeat(MAX_SUMMARY_CHARS));
    assert.ok(!new RegExp(LONE_SURROGATE).test(emoji) && emoji.endsWith('😀…') && emoji.length <= MAX_SUMMARY_CHARS);
    const many = Array.from({ length: MAX_TODOS + 5 }, (_, i) => ({ id: String(i), content: 'c'.repeat(MAX_TODO_CHARS + 10), status: 'pending' as const }));
    const bounded = boundTodos(many);
    assert.equal(bounded.length, MAX_TODOS);
    assert.ok(bounded.every((t) => t.content.length === MAX_TODO_CHARS));
  });

  it('makes opaque, distinct job ids and derives the workflow id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newJobId()));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.ok(isJobId(id), id);
    assert.equal(isJobId('../etc/passwd'), false);
    assert.equal(agentJobWorkflowId('job_x'), 'job_x', 'the workflow id is the job id');
  });
});

describe('agent job model choice', () => {
  const project = (allowedModels: string[]): Project => ({
    id: 'docs',
    orgId: 'acme',
    repository: '/srv/docs.git',
    branch: 'main',
    docsPath: '',
    forge: 'local',
    allowedModels,
    createdAt: base.createdAt,
    updatedAt: base.createdAt,
  });
  const configured = loadConfig({ QUIRE_MODEL: 'gpt-default', QUIRE_DATA_DIR: '/tmp/unused' });
  const none = loadConfig({ QUIRE_DATA_DIR: '/tmp/unused' });

  it('uses the configured model when the project lists none', () => {
    assert.equal(chooseModel(project([]), configured, undefined), 'gpt-default');
    assert.equal(chooseModel(project([]), configured, 'gpt-default'), 'gpt-default');
  });

  it('accepts only the models the project allows', () => {
    assert.equal(chooseModel(project(['a', 'b']), configured, 'b'), 'b');
    assert.equal(chooseModel(project(['a', 'b']), configured, undefined), 'a');
    assert.throws(
      () => chooseModel(project(['a', 'b']), configured, 'gpt-default'),
      (err: unknown) => err instanceof QuireError && err.status === 400 && err.details?.[0]?.path === 'model',
    );
    assert.throws(() => chooseModel(project([]), configured, 'other'), (err: unknown) => err instanceof QuireError && err.status === 400);
  });

  it('refuses a job at the door when no model is configured: 503 model_not_configured', () => {
    for (const requested of [undefined, 'gpt-x'])
      assert.throws(
        () => chooseModel(project([]), none, requested),
        (err: unknown) => err instanceof ModelNotConfiguredError && err.status === 503 && err.code === 'model_not_configured',
      );
  });
});
