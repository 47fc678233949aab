import type { Redis } from 'ioredis';
import { isJobMessage, type JobMessage } from '../contracts/agent-job.js';
import type { JobRecord } from './job-record.js';
import { parseJobRecordJson } from './job-schema.js';
import { compareNewestFirst, decodeCursor, encodeCursor, type JobListQuery, type JobPage, type JobRef, type JobStore } from './job-store.js';

const PREFIX = 'quire:job';
/** Every archived job, `[projectId, jobId]` as JSON, scored by archive time: what retention reads. */
const ARCHIVED = 'quire:jobs-archived';

/**
 * Keeps the record unless a higher revision is stored, and indexes the job in
 * its project's sorted set by creation time (and, once archived, in the archive
 * index by archive time); atomic in Redis.
 */
const PUT_SCRIPT = `
local current = redis.call('HGET', KEYS[1], 'revision')
if current and tonumber(current) > tonumber(ARGV[1]) then
  return redis.call('HGET', KEYS[1], 'record')
end
redis.call('HSET', KEYS[1], 'revision', ARGV[1], 'record', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6]) end
return ARGV[2]
`;

/** Production store: a hash per job and a per-project index sorted by creation time. */
export class RedisJobStore implements JobStore {
  constructor(private readonly redis: Redis) {}

  private keyOf(projectId: string, jobId: string): string {
    return `${PREFIX}:${projectId}:${jobId}`;
  }

  /** A hash of the job's messages, message id to JSON. */
  private messagesOf(projectId: string, jobId: string): string {
    return `${this.keyOf(projectId, jobId)}:messages`;
  }

  private indexOf(projectId: string): string {
    return `${PREFIX}s:${projectId}`;
  }

  async put(record: JobRecord): Promise<JobRecord> {
    const kept = await this.redis.eval(
      PUT_SCRIPT,
      3,
      this.keyOf(record.projectId, record.id),
      this.indexOf(record.projectId),
      ARCHIVED,
      String(record.revision),
      JSON.stringify(record),
      String(Date.parse(record.createdAt)),
      record.id,
      record.status === 'archived' && record.archivedAt ? String(Date.parse(record.archivedAt)) : '',
      archiveMember(record.projectId, record.id),
    );
    return (typeof kept === 'string' ? parseJobRecordJson(kept) : undefined) ?? record;
  }

  async create(record: JobRecord): Promise<void> {
    // The same guarded write: in Redis it is already cheap and atomic.
    await this.put(record);
  }

  async putMessage(projectId: string, jobId: string, message: JobMessage): Promise<void> {
    await this.redis.hsetnx(this.messagesOf(projectId, jobId), message.id, JSON.stringify({ id: message.id, prompt: message.prompt }));
  }

  async getMessages(projectId: string, jobId: string, ids: string[]): Promise<JobMessage[]> {
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(this.messagesOf(projectId, jobId), ...ids);
    return raws.map((raw) => (raw ? parseJson(raw) : undefined)).filter(isJobMessage);
  }

  async remove(projectId: string, jobId: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.keyOf(projectId, jobId), this.messagesOf(projectId, jobId))
      .zrem(this.indexOf(projectId), jobId)
      .zrem(ARCHIVED, archiveMember(projectId, jobId))
      .exec();
  }

  async get(projectId: string, jobId: string): Promise<JobRecord | undefined> {
    const raw = await this.redis.hget(this.keyOf(projectId, jobId), 'record');
    return raw ? parseJobRecordJson(raw) : undefined;
  }

  async archivedBefore(before: string, limit: number): Promise<JobRef[]> {
    const members = await this.redis.zrangebyscore(ARCHIVED, '-inf', `(${Date.parse(before)}`, 'LIMIT', 0, limit);
    return members.map(parseJson).flatMap((m) => (Array.isArray(m) && typeof m[0] === 'string' && typeof m[1] === 'string' ? [{ projectId: m[0], jobId: m[1] }] : []));
  }

  async list(projectId: string, query: JobListQuery): Promise<JobPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const max = after ? String(Date.parse(after.createdAt)) : '+inf';
    const jobs: JobRecord[] = [];
    let offset = 0;
    const batch = Math.max(query.limit * 2, 50);
    // Walks the index newest first in batches until a page (plus one, to know if more exist) is found.
    for (;;) {
      const ids = await this.redis.zrevrangebyscore(this.indexOf(projectId), max, '-inf', 'LIMIT', offset, batch);
      if (ids.length === 0) break;
      offset += ids.length;
      const raws = await this.redis.pipeline(ids.map((id) => ['hget', this.keyOf(projectId, id), 'record'])).exec();
      const records = (raws ?? [])
        .map(([, raw]) => (typeof raw === 'string' ? parseJobRecordJson(raw) : undefined))
        .filter((r): r is JobRecord => r !== undefined)
        .sort(compareNewestFirst);
      for (const r of records) {
        if (after && compareNewestFirst(r, after) <= 0) continue;
        if (query.status && r.status !== query.status) continue;
        jobs.push(r);
      }
      if (jobs.length > query.limit) break;
    }
    jobs.sort(compareNewestFirst);
    const page = jobs.slice(0, query.limit);
    const last = page[page.length - 1];
    return { jobs: page, nextCursor: jobs.length > query.limit && last ? encodeCursor(last) : null };
  }
}

function archiveMember(projectId: string, jobId: string): string {
  return JSON.stringify([projectId, jobId]);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
