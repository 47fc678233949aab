import type { Redis } from 'ioredis';
import { parseAutomationJson, parseAutomationRunJson, type AutomationRecord, type AutomationRun } from './automation-record.js';
import { compareOldestFirst, type AutomationStore, type StoredAutomation } from './automation-store.js';

const PREFIX = 'quire:automations';

/** Production store: per project, one hash of records and one of latest runs (automation id to JSON). */
export class RedisAutomationStore implements AutomationStore {
  constructor(private readonly redis: Redis) {}

  private recordsOf(projectId: string): string {
    return `${PREFIX}:${projectId}`;
  }

  private runsOf(projectId: string): string {
    return `${PREFIX}:${projectId}:runs`;
  }

  async create(record: AutomationRecord): Promise<void> {
    await this.redis.hsetnx(this.recordsOf(record.projectId), record.id, JSON.stringify(record));
  }

  async get(projectId: string, id: string): Promise<StoredAutomation | undefined> {
    const [raw, run] = await Promise.all([this.redis.hget(this.recordsOf(projectId), id), this.redis.hget(this.runsOf(projectId), id)]);
    const record = raw ? parseAutomationJson(raw) : undefined;
    return record ? { record, lastRun: (run && parseAutomationRunJson(run)) || null } : undefined;
  }

  async list(projectId: string): Promise<StoredAutomation[]> {
    const [records, runs] = await Promise.all([this.redis.hgetall(this.recordsOf(projectId)), this.redis.hgetall(this.runsOf(projectId))]);
    const listed: StoredAutomation[] = [];
    for (const [id, raw] of Object.entries(records)) {
      const record = parseAutomationJson(raw);
      const run = runs[id];
      if (record) listed.push({ record, lastRun: (run && parseAutomationRunJson(run)) || null });
    }
    return listed.sort(compareOldestFirst);
  }

  async remove(projectId: string, id: string): Promise<void> {
    await this.redis.multi().hdel(this.recordsOf(projectId), id).hdel(this.runsOf(projectId), id).exec();
  }

  async noteRun(projectId: string, id: string, run: AutomationRun): Promise<void> {
    // A run noted after a delete would leave an orphan entry: only note runs of automations that exist.
    if (await this.redis.hexists(this.recordsOf(projectId), id)) await this.redis.hset(this.runsOf(projectId), id, JSON.stringify(run));
  }
}
