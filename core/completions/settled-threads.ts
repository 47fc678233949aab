import type { SweepingThreadStore } from '../threads/index.js';
import type { CompletionWriter } from './completion-writer.js';

/**
 * The thread store as this process reads it: a thread is read once the exchanges this process took
 * for it are committed, so every reader (the assistant continuing a thread, a rating, the admin
 * views) finds an answer's exchange once the answer has ended, as when the writes ran here.
 */
export function settledThreads(threads: SweepingThreadStore, completions: Pick<CompletionWriter, 'settled' | 'flush'>): SweepingThreadStore {
  return {
    ...threads,
    load: async (orgId, threadId) => {
      await completions.settled(orgId, threadId);
      return threads.load(orgId, threadId);
    },
    // After what this process took is written (its answer records too), so nothing of the thread comes back after it.
    erase: async (ref) => {
      await completions.flush();
      return threads.erase(ref);
    },
    // The same: an answer of the reader this process holds is written before their rows are looked for.
    eraseReader: async (ref) => {
      await completions.flush();
      return threads.eraseReader(ref);
    },
  };
}
