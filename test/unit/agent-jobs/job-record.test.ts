import assert from 'node:assert/strict';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import { isJobId, newJobId, publicRepository, toJobView, type JobRecord } from '../../../core/jobs/index.js';
import { chooseModel } from '../../../api/agent/choose-model.js';
import { loadConfig } from '../../../core/config.js';
import type { Project } from '../../../core/tenants/index.js';
import { HttpError } from '../../../api/http-error.js';

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
  revision: 4,
};

describe('agent job record', () => {
  it('strips credentials from repository URLs but keeps paths and plain URLs', () => {
    assert.equal(publicRepository('https://x-access-token:ghp_secret@github.com/acme/docs.git'), 'https://github.com/acme/docs.git');
    assert.equal(publicRepository('https://token@github.com/acme/docs.git'), 'https://github.com/acme/docs.git');
    assert.equal(publicRepository('https://github.com/acme/docs.git'), 'https://github.com/acme/docs.git');
    assert.equal(publicRepository('git@github.com:acme/docs.git'), 'git@github.com:acme/docs.git');
    assert.equal(publicRepository('/srv/repos/docs.git'), '/srv/repos/docs.git');
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

  it('makes opaque, distinct job ids and derives the workflow id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newJobId()));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.ok(isJobId(id), id);
    assert.equal(isJobId('../etc/passwd'), false);
    assert.equal(agentJobWorkflowId('job_x'), 'agent-job-job_x');
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
      (err: unknown) => err instanceof HttpError && err.status === 400 && err.details?.[0]?.path === 'model',
    );
    assert.throws(() => chooseModel(project([]), configured, 'other'), HttpError);
  });

  it('creates jobs without a model when none is configured (the turn then fails with a reason)', () => {
    assert.equal(chooseModel(project([]), none, undefined), '');
    assert.throws(() => chooseModel(project([]), none, 'gpt-x'), HttpError);
  });
});
