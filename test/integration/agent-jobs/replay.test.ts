/**
 * Replays a recorded run of a job (create, a follow-up during the turn handled
 * by a second turn, a duplicate message) against the current workflow code: a
 * change that breaks determinism for open runs fails here. Re-record with
 * record-history.ts only for a release whose notes say that runs of the previous
 * release must end first (README, "Upgrading"); otherwise guard the change with
 * `patched()`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { workflowCode } from '../../support/temporal.js';
import { HISTORY_FILE } from './record-history.js';

describe('agent job workflow replay', function () {
  this.timeout(60_000);

  it('replays the recorded history without nondeterminism', async () => {
    const history = historyFromJSON(JSON.parse(await fs.readFile(HISTORY_FILE, 'utf8')));
    const events = history.events ?? [];
    assert.ok(events.length > 40, 'the fixture holds a whole run of two turns');
    assert.ok(events.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes), 'with updates');
    const turns = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runAgentTurn');
    assert.equal(turns.length, 2, 'a second turn for the follow-up that came during the first');
    await Worker.runReplayHistory({ workflowBundle: { code: await workflowCode() } }, history, 'agent-job-replay');
  });

  it('fails the replay when the history does not match the code', async () => {
    const raw: { events: Array<{ activityTaskScheduledEventAttributes?: { activityType: { name: string } } }> } = JSON.parse(
      await fs.readFile(HISTORY_FILE, 'utf8'),
    );
    // The tampered history says another activity ran where the code schedules the turn.
    const scheduled = raw.events.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes;
    assert.ok(scheduled);
    scheduled.activityType.name = 'someOtherActivity';
    await assert.rejects(
      Worker.runReplayHistory({ workflowBundle: { code: await workflowCode() } }, historyFromJSON(raw), 'agent-job-tampered'),
      (err: unknown) => err instanceof Error && /nondetermin/i.test(`${err.name} ${err.message}`),
    );
  });
});
