import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { hashSecret, kindOfSecret, sameHash } from './keys.js';
import { LastKnownRecords } from './last-known.js';
import { byId, mergeDomain, mergeProject, newKey, newOrg } from './records.js';
import {
  type ApiKeyRecord,
  type Domain,
  type Organisation,
  type Project,
  type TenantStore,
  UnknownTenantError,
} from './types.js';

const K = {
  orgs: 'quire:tenants:orgs',
  projects: 'quire:tenants:projects',
  domains: 'quire:tenants:domains',
  keys: 'quire:tenants:keys',
  keyByHash: 'quire:tenants:key-by-hash',
};

export interface RedisTenantStoreOptions {
  /**
   * When Redis fails, answer point reads (keys, organisations, domains,
   * projects) from the values last read instead of failing; see LastKnownRecords.
   */
  lastKnownOnError?: boolean;
  logger?: Logger;
}

/** Production store: one Redis hash per kind of record, JSON values. */
export class RedisTenantStore implements TenantStore {
  private readonly lastKnown: LastKnownRecords | undefined;

  constructor(private readonly redis: Redis, options: RedisTenantStoreOptions = {}) {
    this.lastKnown = options.lastKnownOnError ? new LastKnownRecords(options.logger) : undefined;
  }

  private hget(hash: string, id: string): Promise<string | null> {
    const fetch = () => this.redis.hget(hash, id);
    return this.lastKnown ? this.lastKnown.read(hash, id, fetch) : fetch();
  }
  private async get<T>(hash: string, id: string): Promise<T | undefined> {
    const raw = await this.hget(hash, id);
    return raw ? (JSON.parse(raw) as T) : undefined;
  }
  private async all<T extends { id: string }>(hash: string): Promise<T[]> {
    const raw = await this.redis.hvals(hash);
    return raw.map((r) => JSON.parse(r) as T).sort(byId);
  }
  private async requireOrg(orgId: string): Promise<void> {
    if (!(await this.redis.hexists(K.orgs, orgId))) throw new UnknownTenantError('organisation', orgId);
  }

  async addOrg(id: string, limits?: Organisation['limits']): Promise<Organisation> {
    const existing = await this.getOrg(id);
    const org = existing ? { ...existing, ...(limits ? { limits } : {}) } : newOrg(id, limits);
    await this.redis.hset(K.orgs, id, JSON.stringify(org));
    return org;
  }
  getOrg(id: string) {
    return this.get<Organisation>(K.orgs, id);
  }
  listOrgs() {
    return this.all<Organisation>(K.orgs);
  }

  async putProject(input: Parameters<TenantStore['putProject']>[0]): Promise<Project> {
    await this.requireOrg(input.orgId);
    const project = mergeProject(input, await this.getProject(input.id));
    await this.redis.hset(K.projects, input.id, JSON.stringify(project));
    return project;
  }
  getProject(id: string) {
    return this.get<Project>(K.projects, id);
  }
  async listProjects(orgId?: string) {
    return (await this.all<Project>(K.projects)).filter((p) => !orgId || p.orgId === orgId);
  }

  async putDomain(input: Parameters<TenantStore['putDomain']>[0]): Promise<Domain> {
    await this.requireOrg(input.orgId);
    const domain = mergeDomain(input, await this.getDomain(input.id));
    await this.redis.hset(K.domains, input.id, JSON.stringify(domain));
    return domain;
  }
  getDomain(id: string) {
    return this.get<Domain>(K.domains, id);
  }
  async listDomains(orgId?: string) {
    return (await this.all<Domain>(K.domains)).filter((d) => !orgId || d.orgId === orgId);
  }

  async createKey(orgId: string, kind: ApiKeyRecord['kind']) {
    await this.requireOrg(orgId);
    const created = newKey(orgId, kind);
    await this.redis
      .multi()
      .hset(K.keys, created.record.id, JSON.stringify(created.record))
      .hset(K.keyByHash, created.record.hash, created.record.id)
      .exec();
    return created;
  }
  async listKeys(orgId?: string) {
    return (await this.all<ApiKeyRecord>(K.keys))
      .filter((k) => !orgId || k.orgId === orgId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
  async revokeKey(id: string): Promise<ApiKeyRecord> {
    const key = await this.get<ApiKeyRecord>(K.keys, id);
    if (!key) throw new UnknownTenantError('key', id);
    key.revokedAt ??= new Date().toISOString();
    await this.redis.multi().hset(K.keys, id, JSON.stringify(key)).hdel(K.keyByHash, key.hash).exec();
    return key;
  }

  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    const kind = kindOfSecret(secret);
    if (!kind) return undefined;
    const hash = hashSecret(secret);
    const id = await this.hget(K.keyByHash, hash);
    if (!id) return undefined;
    const key = await this.get<ApiKeyRecord>(K.keys, id);
    if (!key || !sameHash(key.hash, hash) || key.kind !== kind || key.revokedAt) return undefined;
    return key;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
  async close(): Promise<void> {}
}
