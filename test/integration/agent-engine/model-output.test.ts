import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { createAgentActivities } from '../../../activities/agent/index.js';
import { MAX_CALLS_PER_REPLY, MAX_REPLY_OUTPUT_CHARS } from '../../../activities/agent/tool-loop.js';
import { MAX_PROBLEMS } from '../../../activities/agent/validate.js';
import { tempDir } from '../../support/services.js';
import { engineFixture, writeDeadLinkPage } from './setup.js';

function toolReplies(requests: Array<{ body: { messages: Array<{ role: string; content?: unknown }> } }>): string[] {
  return requests.at(-1)!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe('agent engine: invalid model output, fix rounds and failures', function () {
  it('answers unknown tools, bad JSON, .. escapes, absolute paths and outward symlinks with tool errors', async function () {
    const outside = await tempDir('quire-outside-');
    await fs.writeFile(path.join(outside, 'secret.txt'), 'top secret');
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'rm_rf', arguments: {} }] },
        { toolCalls: [{ name: 'read_file', arguments: '{"path": "page-1.mdx"' }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: '../../../../etc/passwd' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: '/tmp/pwned.mdx', content: 'x' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'escape/secret.txt' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: '.git/config', content: 'x' } }] },
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Page', new_text: 'Sheet' } }] },
        { text: 'I give up.' },
      ],
    });
    // A symlink already committed in the repository, pointing outside the workspace.
    await fs.symlink(outside, path.join(f.repo.seedDir, 'escape'));
    await f.repo.git(f.repo.seedDir, 'add', 'escape');
    await f.repo.git(f.repo.seedDir, 'commit', '-q', '-m', 'symlink');
    await f.repo.git(f.repo.seedDir, 'push', '-q', 'origin', 'main');

    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('bad1', ['Do something'])));
    assert.equal(result.changed, false);
    assert.equal(result.stopReason, 'no_tool_calls');
    assert.equal(result.steps, 8);
    const replies = toolReplies(f.model.requests);
    assert.match(replies[0]!, /unknown tool "rm_rf"/);
    assert.match(replies[1]!, /not valid JSON/);
    assert.match(replies[2]!, /'\.\.' is not allowed/);
    assert.match(replies[3]!, /absolute paths are not allowed/);
    assert.match(replies[4]!, /symlink to outside the workspace/);
    assert.doesNotMatch(replies[4]!, /top secret/);
    assert.match(replies[5]!, /\.git folder is off limits/);
    assert.match(replies[6]!, /occurs \d+ times in page-1\.mdx/);
    await assert.rejects(fs.stat('/tmp/pwned.mdx'));
  });

  it('feeds validation errors back in a fix round and pushes the fixed page', async function () {
    const broken = '---\ntitle: [unclosed\n---\n\n# Broken\n\nSee [missing](./nope) and <Card>\n';
    const fixed = '---\ntitle: Fixed\n---\n\n# Fixed\n\nSee [page 1](./page-1).\n';
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'broken.mdx', content: broken } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Add page', summary: 'A page.' } }] },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'broken.mdx', content: fixed } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Add a fixed page', summary: 'A valid page.' } }] },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('fix1', ['Add a page'])));
    const fixPrompt = f.model.requests[2]!.body.messages.at(-1)!;
    assert.equal(fixPrompt.role, 'user');
    // Both problems of the page in one round: its frontmatter and its unclosed <Card>.
    assert.match(String(fixPrompt.content), /Validation found 2 problem/);
    assert.match(String(fixPrompt.content), /broken\.mdx:\d+: frontmatter is not valid YAML/);
    assert.match(String(fixPrompt.content), /broken\.mdx:7: MDX syntax error/);
    assert.equal(result.stopReason, 'finish');
    assert.deepEqual(result.validationErrors, []);
    assert.equal(result.title, 'Add a fixed page');
    assert.equal(await f.repo.readFile('quire/fix1', 'broken.mdx'), fixed.trimEnd());
  });

  it('reports errors that remain after the fix rounds and still pushes', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_FIX_ROUNDS: '1' },
      script: (_req, i) => (i === 0 ? writeDeadLinkPage : { text: 'done' }),
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('fix2', ['Add dead link'])));
    assert.equal(result.changed, true);
    assert.equal(f.model.requests.length, 3, 'one main loop of 2 requests, one fix round of 1');
    assert.deepEqual(result.validationErrors, ['dead.md:3: link /gone points at a page that does not exist']);
    assert.match(await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%B', 'quire/fix2'), /Validation notes:\n- dead\.md:3/);
  });

  it('bounds what one reply gets back: calls past the count are refused, output past the size is cut, and the turn still commits', async function () {
    const big = Array.from({ length: 2_000 }, (_, i) => `Line ${i} of a long page, long enough to fill a read.`).join('\n');
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'big.md', content: `# Big\n\n${big}\n` } }] },
        // Four full reads of a 100 KB page: 60,000 characters each, past the reply's 200,000.
        { toolCalls: Array.from({ length: 4 }, () => ({ name: 'read_file', arguments: { path: 'big.md' } })) },
        // More calls than one reply may make.
        { toolCalls: Array.from({ length: MAX_CALLS_PER_REPLY + 2 }, () => ({ name: 'read_file', arguments: { path: 'page-1.mdx' } })) },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Big page', summary: 'Added it.' } }] },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('reply1', ['Add a big page'])));
    assert.equal(result.stopReason, 'finish');
    assert.deepEqual(result.filesChanged, ['big.md']);
    const reads = toolReplies(f.model.requests.slice(0, 3));
    assert.equal(reads.length, 5, 'the write and the four reads');
    assert.equal(reads.slice(1).reduce((n, r) => n + r.length, 0) < MAX_REPLY_OUTPUT_CHARS + 500, true, 'the reads together stay within the bound');
    assert.match(reads[4]!, /\[cut: this reply's tool results reached 200000 characters/);
    const many = toolReplies(f.model.requests.slice(0, 4)).slice(5);
    assert.equal(many.length, MAX_CALLS_PER_REPLY + 2, 'every call is answered');
    assert.equal(many.filter((r) => r.startsWith('error: not run: one reply may make at most')).length, 2);
  });

  it('keeps control characters out of the commit, the title and the summary; a long list of problems is cut, and still commits', async function () {
    const links = Array.from({ length: 800 }, (_, i) => `[gone ${i}](/gone-${i})`).join('\n');
    const f = await engineFixture({
      env: { QUIRE_AGENT_FIX_ROUNDS: '1' },
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'dead.md', content: `# Dead\n\n${links}\n` } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Fix\u0000 typo\u001b[31m', summary: 'done\u0000 now' } }] },
        { text: 'They are meant to be missing.' },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('nul1', ['Add links'])));
    assert.equal(result.changed, true);
    assert.equal(result.title, 'Fix typo[31m');
    assert.equal(result.summary, 'done now');
    assert.equal(result.validationErrors.length, MAX_PROBLEMS + 1);
    assert.match(result.validationErrors.at(-1)!, /^…and 750 more problem\(s\)/);
    const message = await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%B', 'quire/nul1');
    assert.match(message, /^Fix typo\[31m\n\ndone now/);
    assert.doesNotMatch(message, /\u0000|\u001b/);
    const fixPrompt = String(f.model.requests[2]!.body.messages.at(-1)!.content);
    assert.ok(fixPrompt.length < 40_000, `the fix round's prompt holds the first problems only (${fixPrompt.length} characters)`);
  });

  it('a 200 answer without choices (a gateway answering its error so) is a retryable ModelUnavailable naming the reason', async function () {
    const f = await engineFixture({ script: [{ body200: { error: { message: 'upstream overloaded', code: 503 } } }] });
    await assert.rejects(
      f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('shape1', ['x']))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'ModelUnavailable' && !err.nonRetryable && /without a chat completion or its stream: upstream overloaded/.test(err.message),
    );
  });

  it('stops at max steps with what was done', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_STEPS: '2' },
      script: (_req, i) => ({ toolCalls: [{ name: 'write_file', arguments: { path: `n${i}.md`, content: `# N${i}\n` } }] }),
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('steps1', ['Write pages'])));
    assert.equal(result.stopReason, 'max_steps');
    assert.equal(result.steps, 2);
    assert.deepEqual(result.filesChanged.sort(), ['n0.md', 'n1.md']);
  });

  it("a provider's context_length_exceeded ends the turn as its token bound: what was done is committed, not lost", async function () {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'kept.md', content: '# Kept\n\nWritten before the context ran out.\n' } }] },
        { error: { status: 400, message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('ctx1', ['Write a page'])));
    assert.equal(result.changed, true);
    assert.equal(result.stopReason, 'max_tokens');
    assert.deepEqual(result.filesChanged, ['kept.md']);
    assert.match((await f.repo.readFile('quire/ctx1', 'kept.md')) ?? '', /Written before the context ran out/);
  });

  it('a model 400 is a non-retryable ModelRequestInvalid', async function () {
    const f = await engineFixture({ script: [{ error: { status: 400, message: 'unknown parameter' } }] });
    await assert.rejects(
      f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('err1', ['x']))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'ModelRequestInvalid' && err.nonRetryable === true,
    );
  });

  it('a model 429 with Retry-After is retryable with that next retry delay, and the client did not retry', async function () {
    const f = await engineFixture({ script: [{ error: { status: 429, message: 'slow down', retryAfterSeconds: 7 } }] });
    await assert.rejects(
      f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('err2', ['x']))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'ModelUnavailable' && !err.nonRetryable && err.nextRetryDelay === 7000,
    );
    assert.equal(f.model.requests.length, 1);
  });

  it('no model configured is a non-retryable ModelNotConfigured naming the variables', async function () {
    const f = await engineFixture();
    const services = { ...f.services, config: { ...f.services.config, model: undefined }, model: { configured: false as const } };
    await assert.rejects(
      f.inActivity(async () => createAgentActivities(services).runAgentTurn(await f.turnInput('err3', ['x']))),
      (err: unknown) =>
        err instanceof ApplicationFailure && err.type === 'ModelNotConfigured' && err.nonRetryable === true && /QUIRE_MODEL_BASE_URL, QUIRE_MODEL_API_KEY and QUIRE_MODEL/.test(err.message),
    );
  });

  it('a missing repository is a non-retryable RepositoryNotFound', async function () {
    const f = await engineFixture({ script: [{ text: 'x' }] });
    await f.services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: path.join(f.repo.bareDir, 'gone.git'), branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    await assert.rejects(
      f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('err4', ['x']))),
      (err: unknown) => err instanceof ApplicationFailure && err.type === 'RepositoryNotFound' && err.nonRetryable === true,
    );
  });
});
