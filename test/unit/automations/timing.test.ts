import assert from 'node:assert/strict';
import * as v from 'valibot';
import { automationInputSchema, automationJobId, cronProblem, intervalSeconds, isTimeZone } from '../../../core/automations/index.js';
import { isJobId } from '../../../core/jobs/index.js';

describe('automation timing', () => {
  it('takes five-field cron expressions with ranges, steps, lists and names, and the @ shorthands', () => {
    for (const ok of ['0 9 * * MON', '*/15 * * * *', '0 9-17/2 * * mon-fri', '30 2 1,15 JAN,jul *', '0 0 * * 7', '@daily', '@Hourly', ' 5 4 * * * ', '0 0 29 2 *', '0 0 31 4,5 *', '0 0 30-31 2-3 *', '0 0 31 */2 *']) {
      assert.equal(cronProblem(ok), undefined, ok);
    }
  });

  it('names the field and the rule a broken expression breaks', () => {
    const cases: Array<[string, RegExp]> = [
      ['61 * * * *', /^minute: '61' is not a minute \(0-59\)/],
      ['0 24 * * *', /^hour: /],
      ['0 9 0 * *', /^day of month: /],
      ['0 9 * 13 *', /^month: .*JAN-DEC/],
      ['0 9 * * FUNDAY', /^day of week: /],
      ['0 9 * *', /expected 5 fields .* got 4/],
      ['0 0 9 * * MON', /got 6/],
      ['*/0 * * * *', /step/],
      ['5-1 * * * *', /backwards/],
      ['@fortnightly', /unknown shorthand/],
      // Accepted by the engine, and never fired.
      ['0 0 30 2 *', /^day of month 30 falls in none of its months: the schedule would never fire/],
      ['0 0 31 4,6,9,11 *', /^day of month 31 falls in none of its months/],
      ['0 0 30-31 FEB *', /^day of month 30 falls in none/],
      ['', /expected 5 fields/],
    ];
    for (const [expression, rule] of cases) assert.match(cronProblem(expression) ?? '(accepted)', rule, expression);
  });

  it('reads intervals with a unit, within the configured minimum and a year', () => {
    assert.deepEqual(intervalSeconds('90s', 60), { seconds: 90 });
    assert.deepEqual(intervalSeconds('15m', 60), { seconds: 900 });
    assert.deepEqual(intervalSeconds('2h', 60), { seconds: 7200 });
    assert.deepEqual(intervalSeconds('1d', 60), { seconds: 86_400 });
    assert.match(JSON.stringify(intervalSeconds('30s', 60)), /at least 60s/);
    assert.match(JSON.stringify(intervalSeconds('0m', 1)), /whole number and a unit/);
    assert.match(JSON.stringify(intervalSeconds('1w', 1)), /whole number and a unit/);
    assert.match(JSON.stringify(intervalSeconds('400d', 1)), /at most 366d/);
    assert.ok(isTimeZone('Europe/Berlin'));
    assert.ok(!isTimeZone('Mars/Olympus'));
  });

  it('the input schema wants exactly one of cron and interval, and timezone only with cron', () => {
    const schema = automationInputSchema(60);
    const paths = (input: unknown) => {
      const result = v.safeParse(schema, input, { abortEarly: false });
      return result.success ? [] : result.issues.map((i) => i.path?.map((p) => String(p.key)).join('.'));
    };
    assert.deepEqual(paths({ prompt: 'x', cron: '@daily' }), []);
    assert.deepEqual(paths({ prompt: 'x', interval: '1h' }), []);
    assert.deepEqual(paths({ prompt: 'x' }), ['cron']);
    assert.deepEqual(paths({ prompt: 'x', cron: '@daily', interval: '1h' }), ['cron']);
    assert.deepEqual(paths({ prompt: 'x', interval: '1h', timezone: 'UTC' }), ['timezone']);
    assert.deepEqual(paths({ prompt: 'x', interval: '59s' }), ['interval']);
  });

  it('a run’s job id is a job id, the same for the same run and different for another', () => {
    const id = automationJobId('0b9a4a52-7ad2-4c43-9a51-0f0e6a1b7c11');
    assert.ok(isJobId(id), id);
    assert.equal(automationJobId('0b9a4a52-7ad2-4c43-9a51-0f0e6a1b7c11'), id);
    assert.notEqual(automationJobId('1b9a4a52-7ad2-4c43-9a51-0f0e6a1b7c11'), id);
  });
});
