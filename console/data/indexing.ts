import type { ResponseOf } from '../api/responses.js';

/** Why an indexing run did not complete, as the index status reports it (`errorCode`). */
export type IndexErrorCode = NonNullable<ResponseOf<'adminIndexStatus'>['errorCode']>;

/**
 * What went wrong with a domain's indexing, and what to do, in a sentence for
 * its docs team: chosen by the failure's code, never by its message, which is
 * the worker's (git's output, a file the worker could not read, with the
 * server's paths in it) and is not shown. A code this console does not know,
 * or none (a server from before codes), says only that indexing failed.
 */
export function indexFailure(code: IndexErrorCode | null | undefined, domain: { docsPath: string; branch?: string | undefined }): string {
  const branch = domain.branch ? `branch ${domain.branch}` : 'its default branch';
  switch (code) {
    case 'docs_folder_missing':
      return `The docs folder “${domain.docsPath}” is not in the repository on ${branch} at the commit fetched. Correct the domain's docs folder or branch, or push the folder, then re-index.`;
    case 'checkout_failed':
      return `The repository could not be fetched (${branch}): check its address, that the branch exists, that the worker can reach it and that its credentials are accepted, then re-index.`;
    case 'docs_folder_outside':
      return `The docs folder “${domain.docsPath}” leads outside the repository (through a link in it): give a folder of the repository itself, then re-index.`;
    case 'unknown_domain':
      return 'The domain was deleted while it was being indexed.';
    case 'model_credentials':
      return "The embedding model refused the worker's credentials: check its API key, then re-index.";
    case 'model_failed':
      return "The embedding model refused the pages sent to it: check the worker's embedding settings (model name, dimensions), then re-index.";
    case 'model_unavailable':
      return 'The embedding model could not be reached, or stayed busy: re-index later. Pages already indexed are not embedded again.';
    case 'timed_out':
      return 'Indexing took longer than a run may, and was stopped: re-index to go on. Pages already indexed are not indexed again.';
    case 'terminated':
      return 'Indexing was stopped on the server (terminated in Temporal): re-index to start it again.';
    case 'canceled':
      return 'Indexing was cancelled: re-index to start it again.';
    default:
      return "Indexing failed on the worker; the worker's log says why. Re-index to try again, and if it fails again, ask whoever runs this server.";
  }
}
