import { createHash } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DAY_MS, type ThreadExchange, type ThreadRef, type ThreadStore, type ThreadTranscript } from './types.js';

// The callback forms skip the FileHandle objects of fs/promises: about half the cost per answer stored.
const writeNew = promisify(writeFile);
const appendTo = promisify(appendFile);

/** File name of a thread: a hash, so any client-chosen id is a safe name and org-scoped. */
function fileName(orgId: string, threadId: string): string {
  return `${createHash('sha256').update(`${orgId}\0${threadId}`).digest('hex')}.jsonl`;
}

type Line = ({ kind: 'thread' } & ThreadRef & { createdAt: string }) | ({ kind: 'exchange' } & ThreadExchange);

/**
 * The embedded thread store: one append-only JSON-lines file per thread under
 * `<dataDir>/threads/`. Appends need no lock (O_APPEND keeps whole lines in
 * order) and no fsync: losing the last exchange of a chat to a power cut is
 * acceptable, paying a disk flush on every answer is not. A torn last line is
 * skipped on read. A thread untouched for `retentionDays` is deleted when read,
 * or by the hourly sweep.
 */
export class FileThreadStore implements ThreadStore {
  private readonly dir: string;
  private dirReady: Promise<unknown> | undefined;
  private lastSweep = 0;

  constructor(dataDir: string, private readonly retentionDays: number, private readonly now = () => new Date()) {
    this.dir = path.join(dataDir, 'threads');
  }

  async load(orgId: string, threadId: string): Promise<ThreadTranscript | undefined> {
    const file = path.join(this.dir, fileName(orgId, threadId));
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let header: Extract<Line, { kind: 'thread' }> | undefined;
    const exchanges: ThreadExchange[] = [];
    for (const raw of text.split('\n')) {
      if (!raw) continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a line torn by a crash mid-write
      }
      if (line.kind === 'thread') header ??= line;
      else {
        const { kind: _kind, ...exchange } = line;
        exchanges.push(exchange);
      }
    }
    if (!header || header.orgId !== orgId || header.threadId !== threadId) return undefined;
    const updatedAt = exchanges.at(-1)?.finishedAt ?? header.createdAt;
    if (this.now().getTime() - Date.parse(updatedAt) > this.retentionDays * DAY_MS) {
      await fs.rm(file, { force: true });
      return undefined;
    }
    const keyHash = header.keyHash ? { keyHash: header.keyHash } : {};
    return { threadId, orgId, domainId: header.domainId, ...keyHash, createdAt: header.createdAt, updatedAt, exchanges };
  }

  /** Deletes threads nobody touched within the retention period; at most once an hour, off the request path. */
  private sweepNowAndThen(): void {
    const now = this.now().getTime();
    if (now - this.lastSweep < 3_600_000) return;
    this.lastSweep = now;
    void this.sweep(now).catch(() => undefined);
  }

  async sweep(now = this.now().getTime()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.dir).catch(() => [])) {
      const file = path.join(this.dir, name);
      const st = await fs.stat(file).catch(() => undefined);
      if (st && now - st.mtime.getTime() > this.retentionDays * DAY_MS) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async append(ref: ThreadRef, exchange: ThreadExchange): Promise<void> {
    this.dirReady ??= fs.mkdir(this.dir, { recursive: true });
    await this.dirReady;
    const file = path.join(this.dir, fileName(ref.orgId, ref.threadId));
    const entry = `${JSON.stringify({ kind: 'exchange', ...exchange } satisfies Line)}\n`;
    this.sweepNowAndThen();
    // The first writer creates the file with the thread header; a racing writer's exchange may land first, which reading allows.
    const header = `${JSON.stringify({ kind: 'thread', ...ref, createdAt: exchange.startedAt } satisfies Line)}\n`;
    try {
      await writeNew(file, header + entry, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      await appendTo(file, entry, { mode: 0o600 });
    }
  }
}
