/**
 * Replays a recorded webhook delivery run against the current workflow code: a change that breaks
 * determinism for open runs fails here. The fixture was recorded by the code before delivery runs
 * stopped retrying when Temporal suggests continue-as-new: the suggestion reached the run while
 * the head event was being retried, and the run went on trying until the receiver answered, then
 * continued as new. A worker upgraded under such a run must replay it as it ran. Re-record with
 * record-webhook-history.ts only together with a note in README's "Upgrading".
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { workflowCode } from '../../support/temporal.js';
import { WEBHOOK_HISTORY_FILE } from './record-webhook-history.js';

describe('webhook delivery workflow replay', function () {
  this.timeout(60_000);

  it('replays a run that was told to continue as new while it retried its head event', async () => {
    const history = historyFromJSON(JSON.parse(await fs.readFile(WEBHOOK_HISTORY_FILE, 'utf8')));
    const events = history.events ?? [];
    const scheduled = events.findIndex((e) => e.activityTaskScheduledEventAttributes);
    const completed = events.findIndex((e) => e.activityTaskCompletedEventAttributes);
    const told = events.findIndex((e, i) => i > scheduled && i < completed && e.workflowTaskStartedEventAttributes?.suggestContinueAsNew);
    assert.ok(told > 0, 'a workflow task during the attempts was told to continue as new');
    assert.ok(events.some((e) => e.workflowExecutionContinuedAsNewEventAttributes), 'and the run continued as new once the event was delivered');
    await Worker.runReplayHistory({ workflowBundle: { code: await workflowCode() } }, history, 'webhook-delivery-replay');
  });
});
