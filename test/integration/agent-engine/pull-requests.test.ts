import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { createAgentActivities } from '../../../activities/agent/index.js';
import { PullStore } from '../../../core/forge/index.js';
import { startFakeGithub } from '../../fakes/github-server.js';
import { engineFixture } from './setup.js';

const TOKEN = 'ghp_secretTOKENvalue1234567890';

function prInput(turn: number, extra: { validationErrors?: string[] } = {}) {
  return {
    jobId: 'pr1',
    projectId: 'docs',
    branch: 'quire/pr1',
    turn,
    title: 'Rename widget',
    summary: 'Widget is now gadget.',
    messageIds: [`m${turn}`],
    filesChanged: ['page-2.mdx'],
    validationErrors: extra.validationErrors ?? [],
    draft: true,
  };
}

describe('agent engine: pull requests', function () {
  it('local forge: one record per branch, follow-up turns comment once, link served under the public URL', async function () {
    const f = await engineFixture({ env: { QUIRE_PUBLIC_URL: 'https://quire.example.com' } });
    await f.storeTurnPrompts('pr1', 3);
    const first = await f.inActivity(() => f.activities.openOrUpdatePullRequest(prInput(1, { validationErrors: ['a.mdx:1: broken'] })));
    assert.match(first.url, /^https:\/\/quire\.example\.com\/forge\/docs\/pulls\/1\?token=pv_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual({ ...first, url: undefined }, { url: undefined, number: 1, created: true });
    const again = await f.inActivity(() => f.activities.openOrUpdatePullRequest(prInput(1)));
    assert.deepEqual(again, { ...first, created: false }, 'the same link on every turn and retry');
    await f.inActivity(() => f.activities.openOrUpdatePullRequest(prInput(2)));
    await f.inActivity(() => f.activities.openOrUpdatePullRequest(prInput(2)));
    const pull = await new PullStore(f.services.database).get('docs', 1);
    assert.equal(pull?.draft, true);
    assert.equal(pull?.base, 'main');
    assert.match(pull?.body ?? '', /> Prompt of turn 1/);
    assert.match(pull?.body ?? '', /Validation notes[\s\S]*a\.mdx:1: broken/);
    assert.equal(pull?.comments.length, 1, 'a retried follow-up does not comment twice');
    assert.match(pull?.comments[0]?.body ?? '', /Prompt of turn 2/);
    const token = new URL(first.url).searchParams.get('token')!;
    assert.equal(pull?.viewTokenHash, createHash('sha256').update(token).digest('hex'), 'only the hash of the token is kept');
  });

  it('GitHub: creates a draft PR, finds it again, comments on follow-ups, and keeps the token out of git and errors', async function () {
    const github = await startFakeGithub({ owner: 'acme', repo: 'docs', token: TOKEN });
    const f = await engineFixture({
      env: { GITHUB_API_URL: github.url },
      script: [
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'widget 1', new_text: 'gadget 1' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 't', summary: 's' } }] },
      ],
    });
    const secrets = (name: string) => (name === 'ACME_GITHUB_TOKEN' ? TOKEN : undefined);
    const activities = createAgentActivities({ ...f.services, secrets });
    await f.storeTurnPrompts('pr1', 3);
    await f.services.tenants.putProject({
      id: 'docs',
      orgId: 'acme',
      // A GitHub-shaped HTTPS remote on a closed local port: git gets no answer, nothing leaves the machine.
      repository: 'https://127.0.0.1:9/acme/docs.git',
      branch: 'main',
      docsPath: '',
      forge: 'github',
      forgeTokenEnv: 'ACME_GITHUB_TOKEN',
      allowedModels: [],
    });

    const created = await f.inActivity(() => activities.openOrUpdatePullRequest(prInput(1)));
    assert.deepEqual(created, { url: 'https://github.com/acme/docs/pull/1', number: 1, created: true });
    assert.equal(github.pulls[0]?.draft, true);
    assert.equal(github.pulls[0]?.head, 'quire/pr1');
    assert.equal(github.pulls[0]?.base, 'main');
    const list = github.requests[0]!;
    assert.equal(list.query.get('head'), 'acme:quire/pr1');
    assert.equal(list.authorization, `token ${TOKEN}`);

    const found = await f.inActivity(() => activities.openOrUpdatePullRequest(prInput(1)));
    assert.equal(found.created, false);
    assert.equal(github.pulls.length, 1, 'the second call found the existing PR');
    assert.equal(github.pulls[0]?.comments.length, 0, 'turn 1 again is not a follow-up');
    await f.inActivity(() => activities.openOrUpdatePullRequest(prInput(2)));
    await f.inActivity(() => activities.openOrUpdatePullRequest(prInput(2)));
    assert.equal(github.pulls[0]?.comments.length, 1);
    assert.match(github.pulls[0]?.comments[0] ?? '', /Prompt of turn 2/);

    // GitHub rate limit: retryable with Retry-After; 401: non-retryable, token never in the message.
    github.failNext(429, 30);
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(prInput(3))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'ForgeUnavailable' && !err.nonRetryable && err.nextRetryDelay === 30_000;
    });
    github.token = 'rotated';
    await assert.rejects(f.inActivity(() => activities.openOrUpdatePullRequest(prInput(3))), (err: unknown) => {
      return err instanceof ApplicationFailure && err.type === 'BadCredentials' && err.nonRetryable === true && !err.message.includes(TOKEN);
    });

    // A git push over HTTPS cannot reach GitHub here; the failing fetch proves the token stays out of .git/config and errors.
    const turn = await f.inActivity(async () => activities.runAgentTurn(await f.turnInput('pr1', ['x']))).catch((err: unknown) => err);
    assert.ok(turn instanceof ApplicationFailure);
    assert.ok(!turn.message.includes(TOKEN) && !turn.message.includes(Buffer.from(`x-access-token:${TOKEN}`).toString('base64')));
    const gitConfig = await fs.readFile(path.join(f.services.config.dataDir, 'workspaces', 'pr1', '.git', 'config'), 'utf8');
    assert.ok(!gitConfig.includes(TOKEN) && !/extraheader/i.test(gitConfig));
  });

  it("never sends a GitHub token to a host other than GitHub's, nor hands out one of Quire's own settings", async function () {
    const github = await startFakeGithub({ owner: 'acme', repo: 'docs', token: TOKEN });
    const f = await engineFixture({ env: { GITHUB_API_URL: github.url } });
    await f.storeTurnPrompts('pr1', 1);
    // The fixture's worker has a model key (QUIRE_MODEL_API_KEY): its secrets never hand it to a project or webhook.
    assert.equal(f.services.config.model?.apiKey, 'sk-test-model');
    assert.equal(f.services.secrets('QUIRE_MODEL_API_KEY'), undefined);
    const activities = createAgentActivities({ ...f.services, secrets: (name: string) => (name === 'ACME_GITHUB_TOKEN' ? TOKEN : f.services.secrets(name)) });
    await f.services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: 'https://attacker.example/acme/docs.git', branch: 'main', docsPath: '', forge: 'github', forgeTokenEnv: 'ACME_GITHUB_TOKEN', allowedModels: [] });
    await assert.rejects(
      f.inActivity(() => activities.openOrUpdatePullRequest(prInput(1))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'BadCredentials' && /sent only to 127\.0\.0\.1, but its repository is on attacker\.example/.test(err.message),
    );
    assert.equal(github.requests.length, 0, 'GitHub was not called either');
  });

  it('GitHub project without its token variable set is a non-retryable BadCredentials', async function () {
    const f = await engineFixture();
    await f.services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: 'https://github.com/acme/docs', branch: 'main', docsPath: '', forge: 'github', forgeTokenEnv: 'UNSET_TOKEN', allowedModels: [] });
    await assert.rejects(
      f.inActivity(() => createAgentActivities({ ...f.services, secrets: () => undefined }).openOrUpdatePullRequest(prInput(1))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'BadCredentials' && /UNSET_TOKEN/.test(err.message),
    );
  });
});
