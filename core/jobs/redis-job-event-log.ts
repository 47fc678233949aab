import type { Redis } from 'ioredis';
import { parseJobEventJson } from './job-event-schema.js';
import { EVENT_PAGE, type JobEvent, type JobEventLog, type NewJobEvent, type WaitOptions } from './job-events.js';
import { pollForEvents } from './wait-for-events.js';

const PREFIX = 'quire:job-events';

/**
 * Returns the stored event of a key, or numbers the new one (the counter is
 * the sorted set's size plus one) and adds it; atomic in Redis.
 */
const APPEND_SCRIPT = `
local seq = redis.call('HGET', KEYS[2], ARGV[1])
if seq then
  local kept = redis.call('ZRANGEBYSCORE', KEYS[1], seq, seq)
  if kept[1] then return kept[1] end
end
local next = redis.call('ZCARD', KEYS[1]) + 1
local body = string.gsub(ARGV[2], '^{', '{"seq":' .. next .. ',', 1)
redis.call('ZADD', KEYS[1], next, body)
redis.call('HSET', KEYS[2], ARGV[1], next)
return body
`;

/** Production log: a sorted set per job (score = sequence number) and a hash of keys already appended. */
export class RedisJobEventLog implements JobEventLog {
  constructor(private readonly redis: Redis) {}

  private eventsOf(jobId: string): string {
    return `${PREFIX}:${jobId}`;
  }

  async append(event: NewJobEvent): Promise<JobEvent> {
    const { key, ...rest } = event;
    const body = await this.redis.eval(APPEND_SCRIPT, 2, this.eventsOf(event.jobId), `${this.eventsOf(event.jobId)}:keys`, key, JSON.stringify(rest));
    const stored = typeof body === 'string' ? parseJobEventJson(body) : undefined;
    if (!stored) throw new Error(`the event log returned an unreadable event for job ${event.jobId}`);
    return stored;
  }

  async after(jobId: string, afterSeq: number, limit = EVENT_PAGE): Promise<JobEvent[]> {
    const raws = await this.redis.zrangebyscore(this.eventsOf(jobId), `(${afterSeq}`, '+inf', 'LIMIT', 0, limit);
    return raws.map(parseJobEventJson).filter((e): e is JobEvent => e !== undefined);
  }

  async latest(jobId: string): Promise<JobEvent | undefined> {
    const [raw] = await this.redis.zrange(this.eventsOf(jobId), -1, -1);
    return raw ? parseJobEventJson(raw) : undefined;
  }

  waitForEvents(jobId: string, afterSeq: number, options: WaitOptions): Promise<boolean> {
    return pollForEvents(this, jobId, afterSeq, options);
  }

  async forget(jobId: string): Promise<number> {
    // UNLINK frees a long log off Redis's main thread, so deleting it never stalls other clients.
    const results = await this.redis.multi().zcard(this.eventsOf(jobId)).unlink(this.eventsOf(jobId), `${this.eventsOf(jobId)}:keys`).exec();
    const count = results?.[0]?.[1];
    return typeof count === 'number' ? count : 0;
  }
}
