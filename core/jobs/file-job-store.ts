import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
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

  async create(record: JobRecord): Promise<void> {
    const file = this.fileOf(record.projectId, record.id);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written aside, then linked into place: a reader never sees a half-written record, and
    // link() fails rather than replace a state record that got there first (it is newer).
    const aside = `${file}.${randomBytes(4).toString('hex')}.new`;
    await fs.writeFile(aside, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    try {
      await fs.link(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await fs.rm(aside, { force: true });
    }
  }

  async remove(projectId: string, jobId: string): Promise<void> {
    await fs.rm(this.fileOf(projectId, jobId), { force: true });
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
