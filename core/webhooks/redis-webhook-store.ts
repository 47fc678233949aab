import type { Redis } from 'ioredis';
import type { Webhook, WebhookDelivery } from './webhook.js';
import { parseDeliveryJson, parseWebhookJson } from './webhook-schema.js';
import { PURGE_SLICE } from '../jobs/job-events.js';
import { MAX_DELIVERIES, type WebhookStore } from './webhook-store.js';

const PREFIX = 'quire:webhooks';
/** Deliveries kept per project: the log is for an operator's diagnosis, not an archive. */
const KEPT_DELIVERIES = 1000;

/** Production store: a hash of webhooks per project, and per project a hash of deliveries with a sorted index by time. */
export class RedisWebhookStore implements WebhookStore {
  constructor(private readonly redis: Redis) {}

  private hooksOf(projectId: string): string {
    return `${PREFIX}:${projectId}`;
  }

  private deliveriesOf(projectId: string): string {
    return `${PREFIX}:${projectId}:deliveries`;
  }

  async put(hook: Webhook): Promise<Webhook> {
    const kept = await this.get(hook.projectId, hook.id);
    const stored = { ...hook, createdAt: kept?.createdAt ?? hook.createdAt };
    await this.redis.multi().hset(this.hooksOf(hook.projectId), hook.id, JSON.stringify(stored)).sadd(`${PREFIX}:projects`, hook.projectId).exec();
    return stored;
  }

  async get(projectId: string, id: string): Promise<Webhook | undefined> {
    const raw = await this.redis.hget(this.hooksOf(projectId), id);
    return raw ? parseWebhookJson(raw) : undefined;
  }

  async list(projectId?: string): Promise<Webhook[]> {
    const projects = projectId ? [projectId] : await this.redis.smembers(`${PREFIX}:projects`);
    const hooks: Webhook[] = [];
    for (const p of projects) {
      for (const raw of Object.values(await this.redis.hgetall(this.hooksOf(p)))) {
        const hook = parseWebhookJson(raw);
        if (hook) hooks.push(hook);
      }
    }
    return hooks.sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt)));
  }

  async remove(projectId: string, id: string): Promise<boolean> {
    return (await this.redis.hdel(this.hooksOf(projectId), id)) > 0;
  }

  async recordDelivery(delivery: WebhookDelivery): Promise<void> {
    const key = this.deliveriesOf(delivery.projectId);
    await this.redis
      .multi()
      .hset(key, delivery.deliveryId, JSON.stringify(delivery))
      .zadd(`${key}:by-time`, Date.parse(delivery.updatedAt), delivery.deliveryId)
      .exec();
    // Older entries leave the log; their ids leave the hash with them.
    const old = await this.redis.zrange(`${key}:by-time`, 0, -(KEPT_DELIVERIES + 1));
    if (old.length > 0) await this.redis.multi().zrem(`${key}:by-time`, ...old).hdel(key, ...old).exec();
  }

  async deliveries(projectId: string, limit: number): Promise<WebhookDelivery[]> {
    const key = this.deliveriesOf(projectId);
    const ids = await this.redis.zrevrange(`${key}:by-time`, 0, Math.min(limit, MAX_DELIVERIES) - 1);
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(key, ...ids);
    return raws.map((raw) => (raw ? parseDeliveryJson(raw) : undefined)).filter((d): d is WebhookDelivery => d !== undefined);
  }

  async purgeDeliveries(before: string): Promise<number> {
    const cut = `(${Date.parse(before)}`;
    let removed = 0;
    // Every project that ever had a webhook, hence every delivery log.
    for (const projectId of await this.redis.smembers(`${PREFIX}:projects`)) {
      const key = this.deliveriesOf(projectId);
      for (;;) {
        const old = await this.redis.zrangebyscore(`${key}:by-time`, '-inf', cut, 'LIMIT', 0, PURGE_SLICE);
        if (old.length === 0) break;
        await this.redis.multi().zrem(`${key}:by-time`, ...old).hdel(key, ...old).exec();
        removed += old.length;
        if (old.length < PURGE_SLICE) break;
      }
    }
    return removed;
  }
}
