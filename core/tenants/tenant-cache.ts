import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { RecentReads } from './recent-reads.js';
import type { ApiKeyRecord, Domain, Organisation, Project } from './types.js';

/** The channel on which every process announces that it changed an organisation, project, domain or key. */
export const TENANT_CHANGES_CHANNEL = 'quire:tenant-changes';

export interface TenantCacheOptions {
  /** How long an answer is kept; 0 keeps nothing. The bound on how stale a read can be. */
  ttlMs: number;
  /** Answers kept per kind (keys, projects, domains, organisations). */
  maxEntries: number;
  /** With Redis, changes made by other processes are heard at once. */
  redis: Redis | undefined;
  logger: Logger;
}

/**
 * A process's recent reads of the tenant records that every request looks up (its API key, its
 * project or domain, its organisation's limits). Any change this process makes forgets them all
 * and, with Redis, tells every other process to forget theirs. Without Redis (or while this
 * process cannot hear Redis, when it keeps nothing) another process's change is seen after
 * `ttlMs` at most.
 */
export interface TenantCache {
  keys: RecentReads<ApiKeyRecord>;
  projects: RecentReads<Project>;
  domains: RecentReads<Domain>;
  orgs: RecentReads<Organisation>;
  /** Called after a change has committed: forgets every answer here and announces it to the other processes. */
  changed(): Promise<void>;
  close(): Promise<void>;
}

export function openTenantCache(options: TenantCacheOptions): TenantCache {
  const limits = { ttlMs: options.ttlMs, maxEntries: options.maxEntries };
  const keys = new RecentReads<ApiKeyRecord>(limits);
  const projects = new RecentReads<Project>(limits);
  const domains = new RecentReads<Domain>(limits);
  const orgs = new RecentReads<Organisation>(limits);
  const all = [keys, projects, domains, orgs];
  const forget = () => all.forEach((reads) => reads.forget());
  const listening = options.redis && options.ttlMs > 0 ? listen(options.redis, all, options.logger) : undefined;

  return {
    keys,
    projects,
    domains,
    orgs,
    async changed() {
      forget();
      if (!options.redis) return;
      // A change that cannot be announced is seen elsewhere after the TTL (and not at all sooner by
      // processes that lost Redis too: they keep nothing while they cannot hear it).
      await options.redis.publish(TENANT_CHANGES_CHANNEL, listening?.self ?? '').catch((err: unknown) => {
        options.logger.warn({ err }, 'could not announce a tenant change through Redis; other processes see it within QUIRE_TENANT_CACHE_TTL_MS');
      });
    },
    async close() {
      listening?.close();
      forget();
    },
  };
}

/**
 * Subscribes to the changes of other processes on a connection of its own. The reads keep nothing
 * until the subscription is confirmed, and from the moment the connection drops until it is
 * confirmed again, so no announcement can be missed while answers are kept.
 */
function listen(redis: Redis, all: Array<RecentReads<unknown>>, logger: Logger): { self: string; close(): void } {
  const self = randomUUID();
  all.forEach((reads) => reads.suspend());
  const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, autoResubscribe: false });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (_channel: string, from: string) => {
    if (from !== self) all.forEach((reads) => reads.forget());
  });
  subscriber.on('close', () => all.forEach((reads) => reads.suspend()));
  subscriber.on('ready', () => {
    subscriber.subscribe(TENANT_CHANGES_CHANNEL).then(
      () => all.forEach((reads) => reads.resume()),
      (err: unknown) => logger.warn({ err }, 'could not subscribe to tenant changes; tenant reads are not cached'),
    );
  });
  subscriber.connect().catch(() => undefined);
  return {
    self,
    close: () => {
      subscriber.removeAllListeners('close');
      subscriber.disconnect();
    },
  };
}
