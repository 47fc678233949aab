import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readJsonIfExists, withFileLock, writeJsonAtomic } from '../store/atomic-file.js';
import { DAY_MS, type ThreadExchange, type ThreadRef, type ThreadStore, type ThreadTranscript } from './types.js';

/** File name of a thread: a hash, so any client-chosen id is a safe name and org-scoped. */
function fileName(orgId: string, threadId: string): string {
  return `${createHash('sha256').update(`${orgId}\0${threadId}`).digest('hex')}.json`;
}

/**
 * The embedded thread store: one JSON file per thread under `<dataDir>/threads/`.
 * A thread untouched for `retentionDays` is deleted when next read or written.
 */
export class FileThreadStore implements ThreadStore {
  private readonly dir: string;

  constructor(dataDir: string, private readonly retentionDays: number, private readonly now = () => new Date()) {
    this.dir = path.join(dataDir, 'threads');
  }

  private expired(t: ThreadTranscript): boolean {
    return this.now().getTime() - Date.parse(t.updatedAt) > this.retentionDays * DAY_MS;
  }

  async load(orgId: string, threadId: string): Promise<ThreadTranscript | undefined> {
    const file = path.join(this.dir, fileName(orgId, threadId));
    const thread = await readJsonIfExists<ThreadTranscript>(file);
    if (!thread || thread.orgId !== orgId || thread.threadId !== threadId) return undefined;
    if (this.expired(thread)) {
      await fs.rm(file, { force: true });
      return undefined;
    }
    return thread;
  }

  async append(ref: ThreadRef, exchange: ThreadExchange): Promise<void> {
    const file = path.join(this.dir, fileName(ref.orgId, ref.threadId));
    await withFileLock(file, async () => {
      const stored = await readJsonIfExists<ThreadTranscript>(file);
      const now = this.now().toISOString();
      const current = stored && !this.expired(stored) ? stored : undefined;
      const thread: ThreadTranscript = current ?? {
        threadId: ref.threadId,
        orgId: ref.orgId,
        domainId: ref.domainId,
        createdAt: now,
        updatedAt: now,
        exchanges: [],
      };
      thread.exchanges.push(exchange);
      thread.updatedAt = now;
      await writeJsonAtomic(file, thread);
    });
  }
}
