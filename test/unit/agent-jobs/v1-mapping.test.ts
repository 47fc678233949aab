import assert from 'node:assert/strict';
import { fromMessages } from '../../../api/agent/v1/conversation.js';
import { isBranchName } from '../../../api/agent/v1/schemas.js';
import { toSession } from '../../../api/agent/v1/session.js';
import { newJobRecord, type JobRecord } from '../../../core/jobs/index.js';

/** A job as the API creates it for a client-named branch, at a fixed time. */
const job: JobRecord = {
  ...newJobRecord(
    { projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'gpt-test', jobId: 'job_aaaaaaaaaaaaaaaaaaaa', branch: 'docs/new-page' },
    new Date('2026-01-01T00:00:00.000Z'),
  ),
  draft: false,
  revision: 1,
};

describe("Mintlify's v1 request and session mapping", () => {
  it('system messages join the preamble; the user messages after the last assistant one are the prompt', () => {
    const mapped = fromMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Which page covers install?' },
      { role: 'assistant', content: 'Page 2.' },
      { role: 'system', content: '  Say gadget.  ' },
      { role: 'user', content: 'Fix it.' },
      { role: 'user', content: '\nAnd page 3.' },
    ]);
    assert.deepEqual(mapped, {
      prompt: 'Fix it.\n\nAnd page 3.',
      preamble: {
        system: 'Be brief.\n\nSay gadget.',
        earlier: [
          { role: 'user', content: 'Which page covers install?' },
          { role: 'assistant', content: 'Page 2.' },
        ],
      },
    });
  });

  it('a lone user message has no preamble', () => {
    assert.deepEqual(fromMessages([{ role: 'user', content: 'Fix page 1' }]), { prompt: 'Fix page 1', preamble: undefined });
  });

  it('accepts branch names git accepts and refuses the rest', () => {
    for (const name of ['docs/new-page', 'feature_1.2', 'a', 'release/v2/notes']) assert.ok(isBranchName(name), name);
    for (const name of ['-f', '/a', 'a/', '.hidden', 'a/.b', 'a..b', 'a//b', 'x.lock', 'x.lock/y', 'a.', 'HEAD', 'has space', 'a~1', 'a^', 'a:b', 'a\\b', 'é'])
      assert.ok(!isBranchName(name), name);
  });

  it('an active job is not haulted and has no reason, link or message', () => {
    assert.deepEqual(toSession(job), { sessionId: job.id, subdomain: 'docs', branch: 'docs/new-page', haulted: false, todos: [], createdAt: job.createdAt });
  });

  it('haultReason: completed for completed and archived jobs, github_missconfigured for setup errors, error for the rest', () => {
    const failed = (code: string): JobRecord => ({ ...job, status: 'failed', error: { code, message: `failed: ${code}` } });
    assert.equal(toSession({ ...job, status: 'completed' }).haultReason, 'completed');
    assert.equal(toSession({ ...job, status: 'archived' }).haultReason, 'completed');
    for (const code of ['forge_misconfigured', 'bad_credentials', 'repository_not_found']) assert.equal(toSession(failed(code)).haultReason, 'github_missconfigured', code);
    for (const code of ['model_unavailable', 'git_failed', 'job_stopped']) assert.equal(toSession(failed(code)).haultReason, 'error', code);
    assert.equal(toSession({ ...failed('git_failed'), summary: 'An earlier turn’s message.' }).messageToUser, 'failed: git_failed');
  });

  it('keeps the pull request linked while a follow-up runs (v2 shows null then)', () => {
    const running = { ...job, prLink: 'https://example.com/pr/1', title: 'Say gadget', summary: 'Done.', turns: 1 };
    assert.deepEqual(
      [toSession(running).haulted, toSession(running).pullRequestLink, toSession(running).title, toSession(running).messageToUser],
      [false, 'https://example.com/pr/1', 'Say gadget', 'Done.'],
    );
  });
});
