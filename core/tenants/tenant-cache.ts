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
  /**
   * Told when another process announces that it dropped a domain's index (`indexDropped`), so this
   * process forgets what it keeps of it in memory. With it, the process listens even with `ttlMs` 0.
   */
  onIndexDropped?: (domainId: string) => void;
}

/** An announcement: the sender's id, then, when it dropped a domain's index, that domain's id. */
const INDEX_DROPPED = ' index-dropped ';
const announcement = (self: string, domainId?: string) => (domainId === undefined ? self : `${self}${INDEX_DROPPED}${encodeURIComponent(domainId)}`);

function parseAnnouncement(message: string): { from: string; indexDropped?: string } {
  const at = message.indexOf(INDEX_DROPPED);
  if (at < 0) return { from: message };
  try {
    return { from: message.slice(0, at), indexDropped: decodeURIComponent(message.slice(at + INDEX_DROPPED.length)) };
  } catch {
    // Not one of ours: forgetting every read is all it can mean.
    return { from: message.slice(0, at) };
  }
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
  /**
   * Called once a domain's index is dropped from its store: announced like a change, on the same
   * channel, so every other process forgets the domain's index it keeps in memory (`onIndexDropped`).
   */
  indexDropped(domainId: string): Promise<void>;
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
  const listening =
    options.redis && (options.ttlMs > 0 || options.onIndexDropped) ? listen(options.redis, all, options.logger, options.onIndexDropped) : undefined;
  const announce = async (domainId?: string) => {
    forget();
    if (!options.redis) return;
    // A change that cannot be announced is seen elsewhere after the TTL (and not at all sooner by
    // processes that lost Redis too: they keep nothing while they cannot hear it).
    await options.redis.publish(TENANT_CHANGES_CHANNEL, announcement(listening?.self ?? '', domainId)).catch((err: unknown) => {
      options.logger.warn({ err }, 'could not announce a tenant change through Redis; other processes see it within QUIRE_TENANT_CACHE_TTL_MS');
    });
  };

  return {
    keys,
    projects,
    domains,
    orgs,
    changed: () => announce(),
    indexDropped: (domainId) => announce(domainId),
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
function listen(redis: Redis, all: Array<RecentReads<unknown>>, logger: Logger, onIndexDropped: ((domainId: string) => void) | undefined): { self: string; close(): void } {
  const self = randomUUID();
  all.forEach((reads) => reads.suspend());
  const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, autoResubscribe: false });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (_channel: string, message: string) => {
    const { from, indexDropped } = parseAnnouncement(message);
    if (from === self) return;
    all.forEach((reads) => reads.forget());
    if (indexDropped !== undefined) onIndexDropped?.(indexDropped);
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
