/**
 * Bounds, heartbeats, cancellation and retried turns of the agent activity, inside the SDK's real
 * activity context, against a real bare repository; the scripted Chat Completions server stands in
 * for the model provider.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { engineFixture, turnInput, writeDeadLinkPage } from './setup.js';

const writePage = (name: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: name, content: `# ${name}\n` } }] });

describe('agent engine: bounds, heartbeats, cancellation and retried turns', function () {
  it('stops at the token budget with what was done, says so in the commit, and a retry does not ask the model again', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_TOKENS: '1000' },
      script: (_req, i) => ({ ...writePage(`t${i}.md`), usage: { prompt: 500, completion: 600 } }),
    });
    const input = turnInput('tok1', ['Write pages']);
    const result = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(result.stopReason, 'max_tokens');
    assert.equal(f.model.requests.length, 1, 'the first reply spent the budget');
    assert.deepEqual(result.filesChanged, ['t0.md']);
    const message = await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%B', 'quire/tok1');
    assert.match(message, /token budget \(QUIRE_AGENT_MAX_TOKENS\)/);

    // The worker died after the push: Temporal retries the same turn, which finds its own commit.
    const retried = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(f.model.requests.length, 1, 'the retry did not call the model');
    assert.equal(retried.commitSha, result.commitSha);
    assert.equal(retried.stopReason, 'max_tokens');
    assert.deepEqual(retried.filesChanged, result.filesChanged);
    assert.equal(retried.title, result.title);
    assert.equal(retried.summary, result.summary);
    assert.equal(await f.repo.git(f.repo.bareDir, 'rev-list', '--count', 'main..quire/tok1'), '1', 'one commit for the turn');

    // The next turn is not mistaken for the pushed one.
    f.model.script([writePage('next.md'), { toolCalls: [{ name: 'finish', arguments: { title: 'Next', summary: 'Second turn.' } }] }]);
    const next = await f.inActivity(() => f.activities.runAgentTurn(turnInput('tok1', ['More'], 2)));
    assert.notEqual(next.commitSha, result.commitSha);
    assert.equal(next.stopReason, 'finish');
    assert.equal(f.model.requests.length, 3);
  });

  it('a retried turn recovers the summary and validation notes of the pushed commit', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_FIX_ROUNDS: '1' },
      script: (_req, i) => (i === 0 ? writeDeadLinkPage : { toolCalls: [{ name: 'finish', arguments: { title: 'Add dead', summary: 'First paragraph.\n\nSecond paragraph.' } }] }),
    });
    const input = turnInput('rec1', ['Add a page']);
    const first = await f.inActivity(() => f.activities.runAgentTurn(input));
    const requests = f.model.requests.length;
    const retried = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(f.model.requests.length, requests);
    assert.equal(retried.stopReason, 'already_pushed');
    assert.equal(retried.summary, 'First paragraph.\n\nSecond paragraph.');
    assert.deepEqual(retried.validationErrors, first.validationErrors);
    assert.equal(first.validationErrors.length, 1);
  });

  it('stops at the time limit without waiting for a slow model, keeping what was done', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_SECONDS: '1' },
      script: async (_req, i) => {
        if (i > 0) await sleep(5000);
        return writePage(`slow${i}.md`);
      },
    });
    const started = Date.now();
    const result = await f.inActivity(() => f.activities.runAgentTurn(turnInput('time1', ['Write pages'])));
    const elapsed = Date.now() - started;
    assert.equal(result.stopReason, 'max_time');
    assert.deepEqual(result.filesChanged, ['slow0.md']);
    assert.ok(elapsed < 4000, `the turn ended at its deadline, not when the model answered (${elapsed} ms)`);
    assert.match(await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%B', 'quire/time1'), /time limit \(QUIRE_AGENT_MAX_SECONDS\)/);
  });

  it('heartbeats on a timer while one model call is slow, and cancellation aborts that call', async function () {
    let callStarted = 0;
    const f = await engineFixture({
      env: { QUIRE_AGENT_HEARTBEAT_SECONDS: '1' },
      script: async () => {
        callStarted = Date.now();
        await sleep(10_000);
        return { text: 'too late' };
      },
    });
    const env = new MockActivityEnvironment();
    const beats: number[] = [];
    env.on('heartbeat', () => beats.push(Date.now()));
    const turn = env.run(() => f.activities.runAgentTurn(turnInput('beat1', ['Slow'])));
    const settled = turn.then(
      () => undefined,
      (err: unknown) => err,
    );
    while (!callStarted) await sleep(20);
    await sleep(1500);
    const during = beats.filter((t) => t > callStarted).length;
    assert.ok(during >= 3, `heartbeats while the model call was in flight: ${during}`);

    const cancelledAt = Date.now();
    env.cancel();
    const err = await settled;
    assert.ok(err instanceof CancelledFailure, `the turn ends cancelled (${String(err)})`);
    assert.ok(Date.now() - cancelledAt < 1000, 'the model request was aborted, not awaited');
    assert.equal(await f.repo.head('quire/beat1'), undefined, 'nothing was pushed');
  });
});
