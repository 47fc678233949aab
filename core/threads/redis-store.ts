import type { Redis } from 'ioredis';
import type { ThreadAppend, ThreadExchange, ThreadRef, ThreadStore, ThreadTranscript } from './types.js';

interface ThreadHeader {
  threadId: string;
  orgId: string;
  domainId: string;
  keyHash?: string;
  createdAt: string;
}

/**
 * Threads in Redis: a header string and a list of exchanges per (org, thread),
 * both expiring `retentionDays` after the last exchange.
 */
export class RedisThreadStore implements ThreadStore {
  constructor(private readonly redis: Redis, private readonly retentionDays: number) {}

  private keys(orgId: string, threadId: string) {
    // The org is part of the key, so another org's key can never reach this thread.
    const base = `quire:thread:${orgId}:${encodeURIComponent(threadId)}`;
    return { header: `${base}:header`, exchanges: `${base}:exchanges` };
  }

  async load(orgId: string, threadId: string): Promise<ThreadTranscript | undefined> {
    const k = this.keys(orgId, threadId);
    const [headerRaw, items] = await Promise.all([this.redis.get(k.header), this.redis.lrange(k.exchanges, 0, -1)]);
    if (!headerRaw) return undefined;
    const header = JSON.parse(headerRaw) as ThreadHeader;
    const exchanges = items.map((raw) => JSON.parse(raw) as ThreadExchange);
    return { ...header, updatedAt: exchanges.at(-1)?.finishedAt ?? header.createdAt, exchanges };
  }

  async append(ref: ThreadRef, exchange: ThreadExchange): Promise<void> {
    const k = this.keys(ref.orgId, ref.threadId);
    const ttl = this.retentionDays * 86_400;
    const header: ThreadHeader = { ...ref, createdAt: exchange.startedAt };
    const results = await this.redis
      .multi()
      .set(k.header, JSON.stringify(header), 'NX')
      .rpush(k.exchanges, JSON.stringify(exchange))
      .expire(k.header, ttl)
      .expire(k.exchanges, ttl)
      .exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (failed) throw failed;
  }

  /** Issued together, so one thread's exchanges reach Redis in order. */
  async appendAll(entries: ThreadAppend[]): Promise<void> {
    await Promise.all(entries.map(({ ref, exchange }) => this.append(ref, exchange)));
  }
}
