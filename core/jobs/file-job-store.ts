import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isJobMessage, type JobMessage } from '../contracts/agent-job.js';
import { readJsonIfExists, withFileLock, writeJsonAtomic } from '../store/atomic-file.js';
import { parseJobRecord } from './job-schema.js';
import type { JobRecord } from './job-record.js';
import { compareNewestFirst, pageOf, type JobListQuery, type JobPage, type JobStore } from './job-store.js';

const SAFE_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * The embedded default: one JSON file per job under `<dataDir>/jobs/<projectId>/`,
 * written atomically under a cross-process lock (the API and the worker both write).
 */
export class FileJobStore implements JobStore {
  constructor(private readonly root: string) {}

  private fileOf(projectId: string, jobId: string): string {
    if (!SAFE_SEGMENT.test(projectId) || !SAFE_SEGMENT.test(jobId)) throw new Error('unsafe job store path');
    return path.join(this.root, projectId, `${jobId}.json`);
  }

  async put(record: JobRecord): Promise<JobRecord> {
    const file = this.fileOf(record.projectId, record.id);
    return withFileLock(file, async () => {
      const current = parseJobRecord(await readJsonIfExists<unknown>(file));
      if (current && current.revision > record.revision) return current;
      await writeJsonAtomic(file, record);
      return record;
    });
  }

  /** A job's messages sit beside its record, one file each. */
  private messagesDirOf(projectId: string, jobId: string): string {
    return `${this.fileOf(projectId, jobId).slice(0, -'.json'.length)}.messages`;
  }

  /** Named by the id in base64url: message ids may hold characters a file name cannot. */
  private messageFileOf(projectId: string, jobId: string, messageId: string): string {
    return path.join(this.messagesDirOf(projectId, jobId), `${Buffer.from(messageId).toString('base64url')}.json`);
  }

  async create(record: JobRecord): Promise<void> {
    await writeOnce(this.fileOf(record.projectId, record.id), record);
  }

  async putMessage(projectId: string, jobId: string, message: JobMessage): Promise<void> {
    await writeOnce(this.messageFileOf(projectId, jobId, message.id), { id: message.id, prompt: message.prompt });
  }

  async getMessages(projectId: string, jobId: string, ids: string[]): Promise<JobMessage[]> {
    const found = await Promise.all(ids.map((id) => readJsonIfExists<unknown>(this.messageFileOf(projectId, jobId, id))));
    return found.filter(isJobMessage);
  }

  async remove(projectId: string, jobId: string): Promise<void> {
    await fs.rm(this.fileOf(projectId, jobId), { force: true });
    await fs.rm(this.messagesDirOf(projectId, jobId), { recursive: true, force: true });
  }

  async get(projectId: string, jobId: string): Promise<JobRecord | undefined> {
    if (!SAFE_SEGMENT.test(projectId) || !SAFE_SEGMENT.test(jobId)) return undefined;
    return parseJobRecord(await readJsonIfExists<unknown>(this.fileOf(projectId, jobId)));
  }

  async list(projectId: string, query: JobListQuery): Promise<JobPage> {
    if (!SAFE_SEGMENT.test(projectId)) return { jobs: [], nextCursor: null };
    const dir = path.join(this.root, projectId);
    let names: string[];
    try {
      names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { jobs: [], nextCursor: null };
      throw err;
    }
    const records = await Promise.all(names.map(async (n) => parseJobRecord(await readJsonIfExists<unknown>(path.join(dir, n)))));
    const sorted = records.filter((r): r is JobRecord => r !== undefined).sort(compareNewestFirst);
    return pageOf(sorted, query);
  }
}

/**
 * Writes `value` to `file` unless it exists, without a lock: written aside, then linked into
 * place, so a reader never sees a half-written file and link() fails rather than replace a
 * file that got there first (a newer state record, or the first write of a message).
 */
async function writeOnce(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.${randomBytes(4).toString('hex')}.new`;
  await fs.writeFile(aside, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  try {
    await fs.link(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(aside, { force: true });
  }
}
