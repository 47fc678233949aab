/**
 * Bounds, heartbeats, cancellation and retried turns of the agent activity, inside the SDK's real
 * activity context, against a real bare repository; the scripted Chat Completions server stands in
 * for the model provider.
 */
import assert from 'node:assert/strict';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { engineFixture, writeDeadLinkPage } from './setup.js';

const writePage = (name: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: name, content: `# ${name}\n` } }] });

describe('agent engine: bounds, heartbeats, cancellation and retried turns', function () {
  it('stops at the token budget with what was done, says so in the commit, and a retry does not ask the model again', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_TOKENS: '1000' },
      script: (_req, i) => ({ ...writePage(`t${i}.md`), usage: { prompt: 500, completion: 600 } }),
    });
    const input = await f.turnInput('tok1', ['Write pages']);
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
    const next = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('tok1', ['More'], 2)));
    assert.notEqual(next.commitSha, result.commitSha);
    assert.equal(next.stopReason, 'finish');
    assert.equal(f.model.requests.length, 3);
  });

  it('a retried turn recovers the summary and validation notes from the commit trailer, whatever the prose says', async function () {
    // A summary that reads like the commit's own sections: recovering it from the prose would split it.
    const summary = 'First paragraph.\n\nValidation notes:\n- not a note, part of the summary\n\nQuire-Turn: 7';
    const f = await engineFixture({
      env: { QUIRE_AGENT_FIX_ROUNDS: '1' },
      script: (_req, i) => (i === 0 ? writeDeadLinkPage : { toolCalls: [{ name: 'finish', arguments: { title: 'Add dead', summary } }] }),
    });
    const input = await f.turnInput('rec1', ['Add a page']);
    const first = await f.inActivity(() => f.activities.runAgentTurn(input));
    const requests = f.model.requests.length;
    const retried = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(f.model.requests.length, requests);
    assert.equal(retried.stopReason, 'already_pushed');
    assert.equal(retried.title, 'Add dead');
    assert.equal(retried.summary, summary);
    assert.deepEqual(retried.validationErrors, first.validationErrors);
    assert.equal(first.validationErrors.length, 1);
    // The trailers are git's: `git interpret-trailers` reads the turn and its result back.
    const trailers = await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%(trailers:only,unfold)', 'quire/rec1');
    assert.match(trailers, /^Quire-Job: rec1$/m);
    assert.match(trailers, /^Quire-Turn: 1$/m);
    assert.match(trailers, /^Quire-Turn-Result: [A-Za-z0-9_-]+$/m);
  });

  it('stops at the time limit without waiting for a slow model, keeping what was done', async function () {
    // The second model call answers only after the turn has returned: a turn that waited for the
    // model instead of its deadline would never return, and the test would time out.
    let turnReturned!: () => void;
    const returned = new Promise<void>((r) => (turnReturned = r));
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_SECONDS: '1' },
      script: async (_req, i) => {
        if (i > 0) await returned;
        return writePage(`slow${i}.md`);
      },
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('time1', ['Write pages'])));
    turnReturned();
    assert.equal(result.stopReason, 'max_time');
    assert.deepEqual(result.filesChanged, ['slow0.md']);
    assert.equal(f.model.requests.length, 2, 'the turn was waiting on the second call when its time ran out');
    assert.match(await f.repo.git(f.repo.bareDir, 'log', '-1', '--format=%B', 'quire/time1'), /time limit \(QUIRE_AGENT_MAX_SECONDS\)/);
  });

  it('heartbeats on a timer while one model call is slow, and cancellation aborts that call', async function () {
    // The model call never answers by itself: only an aborted request ends it.
    let callStarted!: () => void;
    const started = new Promise<void>((r) => (callStarted = r));
    let release!: () => void;
    const never = new Promise<void>((r) => (release = r));
    const f = await engineFixture({
      env: { QUIRE_AGENT_HEARTBEAT_SECONDS: '1' },
      script: async () => {
        callStarted();
        await never;
        return { text: 'too late' };
      },
    });
    const env = new MockActivityEnvironment();
    let beatsDuringCall = -1;
    let thirdBeat!: () => void;
    const threeBeats = new Promise<void>((r) => (thirdBeat = r));
    env.on('heartbeat', () => {
      if (beatsDuringCall >= 0 && ++beatsDuringCall === 3) thirdBeat();
    });
    const turn = env.run(async () => f.activities.runAgentTurn(await f.turnInput('beat1', ['Slow'])));
    const settled = turn.then(
      () => undefined,
      (err: unknown) => err,
    );
    await started;
    beatsDuringCall = 0;
    // Three heartbeats while the one model call hangs: they come from the timer, not from steps.
    await threeBeats;

    env.cancel();
    // The turn ends while the model still has not answered: the request was aborted, not awaited.
    const err = await settled;
    release();
    assert.ok(err instanceof CancelledFailure, `the turn ends cancelled (${String(err)})`);
    assert.equal(f.model.requests.length, 1);
    assert.equal(await f.repo.head('quire/beat1'), undefined, 'nothing was pushed');
  });
});
