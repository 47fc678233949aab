import assert from 'node:assert/strict';
import * as v from 'valibot';
import { AutomationViewSchema } from '../../../api/automations/schema.js';
import type { AutomationRecord, AutomationView } from '../../../core/automations/index.js';
import { parseAutomationJson, parseAutomationRunJson } from '../../../core/automations/automation-record.js';
import { AUTOMATION_SKIP } from '../../../core/contracts/index.js';

const record: AutomationRecord = {
  id: 'aut_abcdefghijkl',
  projectId: 'docs',
  cron: '0 9 * * 1',
  interval: null,
  timezone: 'UTC',
  prompt: 'Check the changelog',
  model: null,
  asDraft: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const view: AutomationView = {
  ...record,
  scheduleId: 'quire-automation-docs-aut_abcdefghijkl',
  paused: false,
  note: null,
  nextRunTimes: ['2026-01-05T09:00:00.000Z'],
  lastRun: { at: '2026-01-01T09:00:00.000Z', jobId: null, skipped: { code: AUTOMATION_SKIP.overlap, reason: 'the previous job is still running' } },
};

describe('automation shape', () => {
  it('reads a stored automation and its last run back as they were written; anything else is not one', () => {
    assert.deepEqual(parseAutomationJson(JSON.stringify(record)), record);
    assert.deepEqual(parseAutomationRunJson(JSON.stringify(view.lastRun)), view.lastRun);
    assert.equal(parseAutomationJson(JSON.stringify({ ...record, asDraft: 'yes' })), undefined);
    assert.equal(parseAutomationRunJson(JSON.stringify({ ...view.lastRun, skipped: { code: 'bored', reason: '' } })), undefined);
  });

  it('answers an automation the API schema (the served document’s) accepts as it is', () => {
    for (const shown of [view, { ...view, cron: null, interval: '15m', paused: true, note: 'why', nextRunTimes: [], lastRun: null }]) {
      const parsed = v.safeParse(AutomationViewSchema, shown);
      assert.ok(parsed.success, JSON.stringify(parsed.issues));
      assert.deepEqual(parsed.output, shown);
    }
  });
});
