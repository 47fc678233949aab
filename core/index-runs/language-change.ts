import type { Client } from '@temporalio/client';
import { startIndexRun } from './start-index-run.js';

/**
 * After a change of a domain's language (`before` and `after` differ), indexes it again: its stored
 * pages keep the stems of the language they were indexed in, while questions are cut in the new one.
 * When the run cannot be started (Temporal out of reach), `restore` puts the language back and the
 * error is thrown: the change is not kept half done, and repeating it starts the run. True when a
 * run was started (or joined).
 */
export async function reindexOnLanguageChange(
  deps: { temporal: Client; taskQueue: string; restore: (language: string | undefined) => Promise<unknown> },
  domainId: string,
  before: { language?: string | undefined },
  after: { language?: string | undefined },
): Promise<boolean> {
  if (before.language === after.language) return false;
  try {
    await startIndexRun(deps.temporal, deps.taskQueue, domainId);
    return true;
  } catch (err) {
    await deps.restore(before.language);
    throw err;
  }
}
