import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { indexErrorCode } from '../../../api/index-run.js';
import { INDEXING_ERROR } from '../../../core/contracts/index.js';
import { indexFailure } from '../../../console/data/indexing.js';

/** A failed run as its result rejects: the workflow's failure, caused by the activity's, caused by what it threw. */
function failedRun(cause: Error): WorkflowFailedError {
  const activity = new ActivityFailure('Activity task failed', 'prepareDomainIndex', '1', 'NON_RETRYABLE_FAILURE', 'worker', cause);
  return new WorkflowFailedError('Workflow execution failed', activity, 'NON_RETRYABLE_FAILURE');
}

describe('why an indexing run failed', () => {
  it("reads the kind of failure from the activity's failure type, never from its message", () => {
    const missing = ApplicationFailure.nonRetryable('ENOENT: no such file or directory, scandir /srv/x', INDEXING_ERROR.docsFolderMissing);
    assert.equal(indexErrorCode('failed', failedRun(missing)), 'docs_folder_missing');
    assert.equal(indexErrorCode('failed', failedRun(ApplicationFailure.create({ type: INDEXING_ERROR.checkoutFailed, message: 'docs folder is not in the repository' }))), 'checkout_failed');
    // A plain error (a defect, a disk error) reaches the client as a failure of its class's name: no kind the console names.
    assert.equal(indexErrorCode('failed', failedRun(ApplicationFailure.create({ type: 'Error', message: 'the docs folder is missing' }))), 'internal');
    assert.equal(indexErrorCode('timed_out', new Error('timed out')), 'timed_out');
  });

  it('says what went wrong and what to do, in no words of the worker', () => {
    const domain = { docsPath: 'docs', branch: 'main' };
    assert.match(indexFailure('docs_folder_missing', domain), /^The docs folder “docs” is not in the repository on branch main/);
    assert.match(indexFailure('checkout_failed', domain), /^The repository could not be fetched/);
    assert.match(indexFailure(undefined, domain), /^Indexing failed on the worker/);
  });
});
