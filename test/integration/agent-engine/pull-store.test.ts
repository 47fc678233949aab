import assert from 'node:assert/strict';
import { PullStore } from '../../../core/forge/index.js';
import { forEachDialect } from '../../support/databases.js';

forEachDialect('local forge pull store', (database) => {
  it('finds a pull request by its number, and none for a number its table cannot hold (past 2^31-1, zero, negative, fractional)', async () => {
    const store = new PullStore(database());
    const { pull } = await store.openOnce({ projectId: 'docs', jobId: 'job-1', branch: 'quire/job-1', base: 'main', title: 'Reword', body: 'Why.', draft: false });
    assert.equal((await store.get('docs', pull.number))?.title, 'Reword');
    for (const number of [3_000_000_000, 2_147_483_648, 0, -1, 1.5, Number.NaN]) assert.equal(await store.get('docs', number), undefined, String(number));
  });
});
