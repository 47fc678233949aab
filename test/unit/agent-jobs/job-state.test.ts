import assert from 'node:assert/strict';
import { newJobRecord } from '../../../api/agent/create-job.js';
import * as transitions from '../../../workflows/agent-job/job-state.js';
import type { JobState } from '../../../workflows/agent-job/job-state.js';
import { turnEndedEvents } from '../../../workflows/agent-job/turn-events.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const ref = (id: string) => ({ id, summary: `prompt ${id}` });
const report = (patch: Partial<transitions.TurnReport> = {}): transitions.TurnReport => ({
  changed: true,
  title: 'Say gadget',
  summary: 'Page 2 now says gadget.',
  stopReason: null,
  ...patch,
});

function fresh(): JobState {
  const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' }, new Date(T0));
  return transitions.startState({ job, turn: 0, handledMessageIds: [] }, [ref('m0')]);
}

/** Runs the first turn to the given outcome. */
function afterFirstTurn(outcome: Parameters<typeof transitions.endTurn>[1]): JobState {
  return transitions.endTurn(transitions.beginTurn(fresh(), T1).state, outcome, T1);
}

describe('agent job state transitions', () => {
  it('starts with the first message pending and its id seen', () => {
    const state = fresh();
    assert.deepEqual(state.pending, [ref('m0')]);
    assert.deepEqual(state.seen, ['m0']);
    assert.equal(state.job.status, 'active');
    assert.equal(state.turn, 0);
  });

  it('a turn takes every pending message, numbers itself and remembers the handled ids', () => {
    const state = transitions.acceptMessage(fresh(), ref('m1'), T1);
    const { state: running, batch } = transitions.beginTurn(state, T1);
    assert.deepEqual(batch.map((m) => m.id), ['m0', 'm1']);
    assert.deepEqual(running.pending, []);
    assert.equal(running.turn, 1);
    assert.deepEqual(running.handled, ['m0', 'm1']);
    assert.equal(running.job.revision, state.job.revision, 'an active job stays the same revision');
  });

  it('accepts a message once, and shows a settled job active without its old error at once', () => {
    const failed = afterFirstTurn({ kind: 'failed', error: { code: 'model_unavailable', message: 'down' } });
    assert.equal(failed.job.status, 'failed');
    const accepted = transitions.acceptMessage(failed, ref('m1'), T1);
    assert.equal(accepted.job.status, 'active');
    assert.equal(accepted.job.error, null);
    assert.equal(accepted.job.revision, failed.job.revision + 1);
    assert.equal(accepted.job.updatedAt, T1);
    assert.equal(transitions.acceptMessage(accepted, { id: 'm1', summary: 'again' }, T1), accepted, 'a repeated id changes nothing');
    assert.equal(transitions.acceptMessage(accepted, ref('m0'), T1), accepted, 'nor does the first message again');
  });

  it('ends a turn completed with its PR link, keeps the link when nothing changed, and stays active for a queued message', () => {
    const done = afterFirstTurn({ kind: 'done', prLink: 'http://pr/1', opened: true, report: report() });
    assert.equal(done.job.status, 'completed');
    assert.equal(done.job.prLink, 'http://pr/1');
    const second = transitions.endTurn(transitions.beginTurn(transitions.acceptMessage(done, ref('m1'), T1), T1).state, { kind: 'done', prLink: null, opened: false, report: report({ changed: false }) }, T1);
    assert.equal(second.job.prLink, 'http://pr/1');
    const queued = transitions.acceptMessage(transitions.beginTurn(done, T1).state, ref('m2'), T1);
    assert.equal(transitions.endTurn(queued, { kind: 'done', prLink: 'http://pr/1', opened: false, report: report() }, T1).job.status, 'active');
    assert.equal(transitions.endTurn(queued, { kind: 'failed', error: { code: 'x', message: 'y' } }, T1).job.status, 'active');
  });

  it('a turn that opens a new pull request (a reviewer closed or merged the last) takes its link and title, and says opened', () => {
    const done = afterFirstTurn({ kind: 'done', prLink: 'http://pr/1', opened: true, report: report() });
    const again = transitions.beginTurn(transitions.acceptMessage(done, ref('m1'), T1), T1).state;
    const updating = { kind: 'done', prLink: 'http://pr/1', opened: false, report: report({ title: 'Other' }) } as const;
    const updated = transitions.endTurn(again, updating, T1);
    assert.deepEqual([updated.job.prLink, updated.job.title], ['http://pr/1', 'Say gadget'], 'the open pull request keeps its title');
    assert.ok(turnEndedEvents(updated, updating, T1).some((e) => e.type === 'pull_request.updated'));
    const opening = { kind: 'done', prLink: 'http://pr/2', opened: true, report: report({ title: 'Second' }) } as const;
    const reopened = transitions.endTurn(again, opening, T1);
    assert.deepEqual([reopened.job.prLink, reopened.job.title], ['http://pr/2', 'Second']);
    const events = turnEndedEvents(reopened, opening, T1);
    assert.deepEqual(events.find((e) => e.type.startsWith('pull_request.'))?.type, 'pull_request.opened');
  });

  it('a finished turn says what it did: title, summary, turns, files, stop reason and plan', () => {
    const todos = [{ id: '1', content: 'Edit page 2', status: 'completed' as const }];
    const first = transitions.noteFilesChanged(transitions.beginTurn(fresh(), T1).state, ['page-2.mdx']);
    const done = transitions.endTurn(first, { kind: 'done', prLink: 'http://pr/1', opened: true, report: report({ stopReason: 'max_steps', todos }) }, T1);
    assert.deepEqual(
      [done.job.title, done.job.summary, done.job.turns, done.job.filesChanged, done.job.stopReason, done.job.todos],
      ['Say gadget', 'Page 2 now says gadget.', 1, ['page-2.mdx'], 'max_steps', todos],
    );
    // A follow-up that changes nothing: its own summary and no stop reason; the PR's title and the plan stay.
    const again = transitions.beginTurn(transitions.acceptMessage(done, ref('m1'), T1), T1).state;
    const quiet = transitions.endTurn(again, { kind: 'done', prLink: null, opened: false, report: report({ changed: false, title: 'Other', summary: 'No files were changed. Already right.' }) }, T1);
    assert.deepEqual(
      [quiet.job.title, quiet.job.summary, quiet.job.turns, quiet.job.stopReason, quiet.job.todos],
      ['Say gadget', 'No files were changed. Already right.', 2, null, todos],
    );
    // A failed turn counts, and keeps what the last finished one said.
    const failed = transitions.endTurn(transitions.beginTurn(transitions.acceptMessage(quiet, ref('m2'), T1), T1).state, { kind: 'failed', error: { code: 'x', message: 'y' } }, T1);
    assert.equal(failed.job.turns, 3);
    assert.equal(failed.job.summary, quiet.job.summary);
  });

  it('archives once, with the time, and a cancelled turn changes nothing after it', () => {
    const archived = transitions.archiveJob(fresh(), T1);
    assert.ok(transitions.isArchived(archived));
    assert.equal(archived.job.archivedAt, T1);
    assert.equal(transitions.archiveJob(archived, T1), archived);
    assert.equal(transitions.endTurn(archived, { kind: 'cancelled' }, T1), archived);
  });

  it('an archived job whose turn opened a pull request anyway names it; nothing else of the turn changes it', () => {
    const archived = transitions.archiveJob(transitions.beginTurn(fresh(), T1).state, T1);
    const kept = transitions.keepPullRequest(archived, { kind: 'done', prLink: 'https://forge.test/pr/1', opened: true, report: report() }, T1);
    assert.equal(kept.job.prLink, 'https://forge.test/pr/1');
    assert.equal(kept.job.status, 'archived');
    assert.equal(kept.job.revision, archived.job.revision + 1);
    for (const outcome of [{ kind: 'done', prLink: null, opened: false, report: report() }, { kind: 'cancelled' }] as const) assert.equal(transitions.keepPullRequest(archived, outcome, T1), archived);
    assert.equal(transitions.keepPullRequest(kept, { kind: 'done', prLink: 'https://forge.test/pr/1', opened: true, report: report() }, T1), kept);
  });

  it('collects changed files across turns without repeats', () => {
    const state = transitions.noteFilesChanged(transitions.noteFilesChanged(fresh(), ['a.mdx', 'b.mdx']), ['b.mdx', 'c.mdx']);
    assert.deepEqual(state.filesChanged, ['a.mdx', 'b.mdx', 'c.mdx']);
    assert.equal(transitions.noteFilesChanged(state, ['a.mdx']), state);
  });

  it('lists at most MAX_LISTED_FILES changed files, the first ones changed, so the record stays a small payload', () => {
    const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => `guides/page-${from + i}.mdx`);
    const full = transitions.noteFilesChanged(transitions.noteFilesChanged(fresh(), many(0, 600)), many(400, 600));
    assert.equal(full.filesChanged.length, transitions.MAX_LISTED_FILES);
    assert.deepEqual(full.filesChanged.slice(-2), many(998, 2));
    assert.equal(transitions.noteFilesChanged(full, many(2000, 5)), full);
  });

  it('a new run starts from the job as loaded: its turn, and messages a turn took are not run again', () => {
    const done = afterFirstTurn({ kind: 'done', prLink: 'http://pr/1', opened: true, report: report() });
    const next = transitions.startState({ job: done.job, turn: 1, handledMessageIds: ['m0'] }, [ref('m0'), ref('m1')]);
    assert.deepEqual(next.pending, [ref('m1')], 'the first message again is dropped');
    assert.deepEqual(next.seen, ['m0', 'm1']);
    assert.deepEqual(next.handled, ['m0']);
    assert.equal(next.turn, 1);
    assert.equal(transitions.acceptMessage(next, ref('m0'), T1), next, 'an update repeating a handled message changes nothing');
    const { batch, state } = transitions.beginTurn(next, T1);
    assert.deepEqual(batch, [ref('m1')]);
    assert.equal(state.turn, 2);
  });

  it('bounds the ids a run remembers and the handled messages it quotes', () => {
    const many = Array.from({ length: transitions.MAX_SEEN_IDS + 10 }, (_, i) => `m${i}`);
    const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' }, new Date(T0));
    let state = transitions.startState({ job, turn: 3, handledMessageIds: many }, []);
    assert.equal(state.seen.length, transitions.MAX_SEEN_IDS);
    assert.equal(state.handled.length, transitions.MAX_HANDLED);
    assert.equal(state.handled.at(-1), many.at(-1));
    state = transitions.acceptMessage(state, ref('new'), T1);
    assert.equal(state.seen.length, transitions.MAX_SEEN_IDS);
    assert.equal(state.seen.at(-1), 'new');
  });

  it('a run fails with the job error only when it leaves the job failed', () => {
    const error = { code: 'repository_not_found', message: 'no such repository' };
    const failed = afterFirstTurn({ kind: 'failed', error });
    assert.deepEqual(transitions.runFailure(failed), error);
    assert.equal(transitions.runFailure(afterFirstTurn({ kind: 'done', prLink: null, opened: false, report: report({ changed: false }) })), undefined);
    assert.equal(transitions.runFailure(transitions.archiveJob(failed, T1)), undefined, 'an archived job is not a failed run');
    assert.equal(transitions.runFailure(transitions.acceptMessage(failed, ref('m1'), T1)), undefined);
  });
});
