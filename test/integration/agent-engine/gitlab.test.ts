import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createAgentActivities, githubRepo, gitlabProject } from '../../../activities/agent/index.js';
import { startFakeGitlab } from '../../fakes/gitlab-server.js';
import { engineFixture } from './setup.js';

const TOKEN = 'glpat-secretTOKENvalue1234567890';

function mrInput(turn: number, draft = false) {
  return {
    jobId: 'mr1',
    projectId: 'docs',
    branch: 'quire/mr1',
    turn,
    title: 'Rename widget',
    summary: 'Widget is now gadget.',
    messageIds: [`m${turn}`],
    filesChanged: ['page-2.mdx'],
    validationErrors: [],
    draft,
  };
}

describe('agent engine: GitLab merge requests (fake GitLab REST v4 server)', function () {
  it('reads the instance and project path from the clone URL, and refuses what is not one', function () {
    assert.deepEqual(gitlabProject('https://gitlab.example.com/acme/docs/site.git'), { host: 'https://gitlab.example.com', path: 'acme/docs/site' });
    assert.deepEqual(gitlabProject('https://gitlab.com/acme/docs'), { host: 'https://gitlab.com', path: 'acme/docs' });
    for (const bad of ['git@gitlab.com:acme/docs.git', 'https://gitlab.com/docs', 'https://user:pw@gitlab.com/acme/docs', 'https://deploy:s3cret@gitlab.com:notaport/acme'])
      assert.throws(
        () => gitlabProject(bad),
        // The failure message lands in workflow history and the job's error: never the credentials.
        (err: unknown) => err instanceof ApplicationFailure && err.type === 'ForgeMisconfigured' && err.nonRetryable && !/s3cret|:pw@/.test(err.message),
      );
    assert.throws(
      () => githubRepo('https://deploy:s3cret@github.com/acme'),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'ForgeMisconfigured' && /github\.com\/acme/.test(err.message) && !err.message.includes('s3cret'),
    );
  });

  it('opens a draft merge request once, finds it again, adds one note per follow-up turn, and classifies failures without the token', async function () {
    const gitlab = await startFakeGitlab({ projectPath: 'acme/docs', token: TOKEN });
    const f = await engineFixture();
    const secrets = (name: string) => (name === 'ACME_GITLAB_TOKEN' ? TOKEN : undefined);
    const activities = createAgentActivities({ ...f.services, secrets });
    await f.storeTurnPrompts('mr1', 3);
    await f.services.tenants.putProject({
      id: 'docs',
      orgId: 'acme',
      repository: `${gitlab.url}/acme/docs.git`,
      branch: 'main',
      docsPath: '',
      forge: 'gitlab',
      forgeTokenEnv: 'ACME_GITLAB_TOKEN',
      allowedModels: [],
    });

    const created = await f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(1, true)));
    assert.deepEqual(created, { url: `${gitlab.url}/acme/docs/-/merge_requests/1`, number: 1, created: true });
    const mr = gitlab.mergeRequests[0];
    assert.equal(mr?.title, 'Draft: Rename widget');
    assert.equal(mr?.sourceBranch, 'quire/mr1');
    assert.equal(mr?.targetBranch, 'main');
    assert.match(mr?.description ?? '', /Prompt of turn 1/);
    assert.equal(gitlab.requests[0]?.path, '/api/v4/projects/acme%2Fdocs/merge_requests');
    assert.equal(gitlab.requests[0]?.query.get('source_branch'), 'quire/mr1');
    assert.equal(gitlab.requests[0]?.privateToken, TOKEN);

    const again = await f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(1, true)));
    assert.deepEqual(again, { ...created, created: false });
    assert.equal(gitlab.mergeRequests.length, 1);
    assert.equal(mr?.notes.length, 0, 'turn 1 again is not a follow-up');
    await f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(2)));
    await f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(2)));
    assert.equal(mr?.notes.length, 1, 'a retried follow-up does not post twice');
    assert.match(mr?.notes[0] ?? '', /Prompt of turn 2/);

    // One request per attempt: the client never retries a 429 itself; Temporal does, after Retry-After.
    const before = gitlab.requests.length;
    gitlab.failNext(429, 20);
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(3))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'ForgeUnavailable' && !err.nonRetryable && err.nextRetryDelay === 20_000;
    });
    assert.equal(gitlab.requests.length, before + 1);
    gitlab.failNext(502);
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(3))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'ForgeUnavailable' && !err.nonRetryable;
    });
    gitlab.token = 'rotated';
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(3))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'BadCredentials' && err.nonRetryable === true && !err.message.includes(TOKEN);
    });
  });

  it('a project on a GitLab path the token cannot see is a non-retryable RepositoryNotFound', async function () {
    const gitlab = await startFakeGitlab({ projectPath: 'acme/docs', token: TOKEN });
    const f = await engineFixture();
    const activities = createAgentActivities({ ...f.services, secrets: () => TOKEN });
    await f.services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: `${gitlab.url}/acme/other.git`, branch: 'main', docsPath: '', forge: 'gitlab', forgeTokenEnv: 'T', allowedModels: [] });
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(mrInput(1))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'RepositoryNotFound' && err.nonRetryable === true;
    });
  });
});
