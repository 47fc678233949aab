import assert from 'node:assert/strict';
import * as v from 'valibot';
import { PullView } from '../../../api/pulls/operations.js';
import type { PullRecord } from '../../../core/forge/index.js';

describe('pull request shape', () => {
  it('answers a pull the API schema (the served document’s) accepts as it is: the record less its token hash, with the diff', () => {
    const pull: PullRecord = {
      number: 3,
      projectId: 'docs',
      jobId: 'job_aaaaaaaaaaaaaaaaaaaa',
      branch: 'quire/job_aaaaaaaaaaaaaaaaaaaa',
      base: 'main',
      title: 'Say gadget',
      body: 'Page 2 now says gadget.',
      draft: false,
      state: 'open',
      comments: [{ body: 'Mention the installer too', createdAt: '2026-01-01T00:00:00.000Z' }],
      viewTokenHash: 'ab'.repeat(32),
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const { viewTokenHash: _, ...record } = pull;
    const view = { ...record, diff: 'diff --git a/page-2.mdx b/page-2.mdx\n' };
    const parsed = v.safeParse(PullView, view);
    assert.ok(parsed.success, JSON.stringify(parsed.issues));
    assert.deepEqual(parsed.output, view);
    assert.equal('viewTokenHash' in PullView.entries, false);
  });
});
