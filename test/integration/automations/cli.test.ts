/** `quire automations …` against the suite's Temporal dev server and a data directory, in-process. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { ScheduleNotFoundError } from '@temporalio/client';
import { automations as automationsCommand } from '../../../infra/cli/automations-command.js';
import { testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

describe('automations through the CLI (same stores, same Temporal)', function () {
  this.timeout(60_000);

  it('quire automations add, list, pause, delete', async () => {
    const services = await testServices({ taskQueue: `automations-cli-${randomUUID()}` });
    await services.tenants.addOrg('acme');
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: ['m-a'] });
    const run = async (...args: string[]) => {
      const out = new PassThrough();
      let printed = '';
      out.on('data', (d: Buffer) => (printed += d.toString()));
      const code = await automationsCommand(args, { ...services, out });
      return { code, printed };
    };

    const added = await run('add', 'docs', '--cron', '0 9 * * 7', '--prompt', 'Fix typos\nand links', '--model', 'm-a', '--draft');
    assert.equal(added.code, 0, added.printed);
    const [, id, scheduleId] = /^automation (aut_\w+) ready \(schedule (\S+)\)$/m.exec(added.printed) ?? [];
    assert.ok(id && scheduleId, added.printed);
    onSuiteEnd(() => services.temporal.schedule.getHandle(scheduleId).delete().catch(() => undefined));
    assert.equal((await services.temporal.schedule.getHandle(scheduleId).describe()).state.paused, false);
    const stored = await services.automations.get('docs', id);
    assert.deepEqual([stored?.record.prompt, stored?.record.model, stored?.record.asDraft], ['Fix typos\nand links', 'm-a', true]);

    assert.match((await run('list', 'docs')).printed, new RegExp(`^${id}\tcron 0 9 \\* \\* 7\tnext \\S+\tnever run\tFix typos$`, 'm'));
    assert.equal((await run('pause', 'docs', id)).code, 0);
    assert.equal((await services.temporal.schedule.getHandle(scheduleId).describe()).state.paused, true);
    assert.match((await run('list', 'docs')).printed, new RegExp(`^${id}\tcron .*\tpaused \\(paused through Quire\\)\t`, 'm'));

    await assert.rejects(run('add', 'docs', '--cron', '0 9 * *', '--prompt', 'x'), /--cron: cron: expected 5 fields/);
    await assert.rejects(run('add', 'docs', '--every', '5m', '--prompt', 'x', '--model', 'm-z'), /--model must be one of: m-a/);
    await assert.rejects(run('delete', 'docs', 'aut_unknown000000'), /unknown automation/);
    // An unknown project is refused, not listed as empty.
    await assert.rejects(run('list', 'nope'), /unknown project 'nope'; quire projects list names every project/);

    assert.equal((await run('delete', 'docs', id)).code, 0);
    await assert.rejects(services.temporal.schedule.getHandle(scheduleId).describe(), ScheduleNotFoundError);
    assert.equal((await run('list', 'docs')).printed, '');
  });
});
