import assert from 'node:assert/strict';
import { firstRunInput, newJobRecord } from '../../../api/agent/create-job.js';
import type { JobSettings } from '../../../core/contracts/index.js';
import * as transitions from '../../../workflows/agent-job/job-state.js';
import type { JobState } from '../../../workflows/agent-job/job-state.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const settings: JobSettings = { draft: false, idleArchiveDays: 30, turnTimeoutSeconds: 60, heartbeatSeconds: 20 };
const ref = (id: string) => ({ id, summary: `prompt ${id}` });

function fresh(): JobState {
  const job = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' }, new Date(T0));
  return transitions.startState(firstRunInput(job, ref('m0'), settings));
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
    const done = afterFirstTurn({ kind: 'done', prLink: 'http://pr/1' });
    assert.equal(done.job.status, 'completed');
    assert.equal(done.job.prLink, 'http://pr/1');
    const second = transitions.endTurn(transitions.beginTurn(transitions.acceptMessage(done, ref('m1'), T1), T1).state, { kind: 'done', prLink: null }, T1);
    assert.equal(second.job.prLink, 'http://pr/1');
    const queued = transitions.acceptMessage(transitions.beginTurn(done, T1).state, ref('m2'), T1);
    assert.equal(transitions.endTurn(queued, { kind: 'done', prLink: 'http://pr/1' }, T1).job.status, 'active');
    assert.equal(transitions.endTurn(queued, { kind: 'failed', error: { code: 'x', message: 'y' } }, T1).job.status, 'active');
  });

  it('archives once, with the time, and a cancelled turn changes nothing after it', () => {
    const archived = transitions.archiveJob(fresh(), T1);
    assert.ok(transitions.isArchived(archived));
    assert.equal(archived.job.archivedAt, T1);
    assert.equal(transitions.archiveJob(archived, T1), archived);
    assert.equal(transitions.endTurn(archived, { kind: 'cancelled' }, T1), archived);
  });

  it('collects changed files across turns without repeats', () => {
    const state = transitions.noteFilesChanged(transitions.noteFilesChanged(fresh(), ['a.mdx', 'b.mdx']), ['b.mdx', 'c.mdx']);
    assert.deepEqual(state.filesChanged, ['a.mdx', 'b.mdx', 'c.mdx']);
    assert.equal(transitions.noteFilesChanged(state, ['a.mdx']), state);
  });

  it('bounds what crosses continue-as-new: the latest seen ids and handled messages', () => {
    let state = fresh();
    for (let i = 1; i <= transitions.MAX_SEEN_IDS + 10; i++) state = transitions.acceptMessage(state, ref(`m${i}`), T1);
    state = transitions.beginTurn(state, T1).state;
    const next = transitions.continueAsNewInput(state, settings);
    assert.equal(next.seenMessageIds.length, transitions.MAX_SEEN_IDS);
    assert.equal(next.seenMessageIds.at(-1), `m${transitions.MAX_SEEN_IDS + 10}`);
    assert.equal(next.handledMessageIds.length, transitions.MAX_HANDLED);
    assert.equal(next.handledMessageIds.at(-1), `m${transitions.MAX_SEEN_IDS + 10}`);
    assert.deepEqual(next.settings, settings);
    assert.deepEqual(transitions.startState(next).job, state.job, 'the next run starts from this state');
  });
});
