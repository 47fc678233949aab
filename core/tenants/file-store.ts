import fsSync from 'node:fs';
import path from 'node:path';
import { readJsonIfExists, withFileLock, writeJsonAtomic } from '../store/atomic-file.js';
import { freshReads } from './fresh-reads.js';
import { hashSecret, kindOfSecret, sameHash } from './keys.js';
import { byId, mergeDomain, mergeProject, newKey, newOrg } from './records.js';
import {
  type ApiKeyRecord,
  type Domain,
  type Organisation,
  type Project,
  type TenantStore,
  TenantConflictError,
  UnknownTenantError,
} from './types.js';

interface TenantFile {
  version: 1;
  orgs: Record<string, Organisation>;
  projects: Record<string, Project>;
  domains: Record<string, Domain>;
  keys: Record<string, ApiKeyRecord>;
}

const empty = (): TenantFile => ({ version: 1, orgs: {}, projects: {}, domains: {}, keys: {} });

/**
 * The embedded default: one JSON file under the data directory. Writers take a
 * cross-process lock and replace the file atomically; readers reload it when
 * its identity changes, so the CLI's writes reach a running service at once.
 */
export class FileTenantStore implements TenantStore {
  private cache: { stamp: string; data: TenantFile; byHash: Map<string, ApiKeyRecord> } | undefined;

  constructor(private readonly file: string) {}

  static inDataDir(dataDir: string): FileTenantStore {
    return new FileTenantStore(path.join(dataDir, 'tenants.json'));
  }

  /**
   * The tenant file as it is now: every read checks the file's stamp, so a change the CLI made
   * before a request arrived is always seen by it. The check is a synchronous `stat` (a few
   * microseconds on a local file); an asynchronous one costs a thread-pool round trip, three of
   * them per request (key, project, organisation), a third of an agent create's own time.
   */
  private async snapshot(): Promise<{ data: TenantFile; byHash: Map<string, ApiKeyRecord> }> {
    const stamp = this.stamp();
    if (this.cache?.stamp === stamp) return this.cache;
    return this.reload();
  }

  private stamp(): string {
    const st = fsSync.statSync(this.file, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.mtimeMs}:${st.size}` : 'missing';
  }

  /** Concurrent requests that find the file changed share one read of it. */
  private readonly reload = freshReads(async () => {
    const stamp = this.stamp();
    const data = (await readJsonIfExists<TenantFile>(this.file)) ?? empty();
    const byHash = new Map(Object.values(data.keys).map((k) => [k.hash, k]));
    this.cache = { stamp, data, byHash };
    return this.cache;
  });

  private async update<T>(fn: (data: TenantFile) => T): Promise<T> {
    return withFileLock(this.file, async () => {
      const data = (await readJsonIfExists<TenantFile>(this.file)) ?? empty();
      const result = fn(data);
      await writeJsonAtomic(this.file, data);
      this.cache = undefined;
      return result;
    });
  }

  private static requireOrg(data: TenantFile, orgId: string): void {
    if (!data.orgs[orgId]) throw new UnknownTenantError('organisation', orgId);
  }

  async addOrg(id: string, limits?: Organisation['limits']): Promise<Organisation> {
    return this.update((data) => {
      const existing = data.orgs[id];
      if (existing) {
        if (limits) existing.limits = limits;
        return existing;
      }
      return (data.orgs[id] = newOrg(id, limits));
    });
  }
  async getOrg(id: string) {
    return (await this.snapshot()).data.orgs[id];
  }
  async listOrgs() {
    return Object.values((await this.snapshot()).data.orgs).sort(byId);
  }

  async putProject(input: Parameters<TenantStore['putProject']>[0]): Promise<Project> {
    return this.update((data) => {
      FileTenantStore.requireOrg(data, input.orgId);
      return (data.projects[input.id] = mergeProject(input, data.projects[input.id]));
    });
  }
  async getProject(id: string) {
    return (await this.snapshot()).data.projects[id];
  }
  async listProjects(orgId?: string) {
    const all = Object.values((await this.snapshot()).data.projects);
    return all.filter((p) => !orgId || p.orgId === orgId).sort(byId);
  }

  async putDomain(input: Parameters<TenantStore['putDomain']>[0]): Promise<Domain> {
    return this.update((data) => {
      FileTenantStore.requireOrg(data, input.orgId);
      return (data.domains[input.id] = mergeDomain(input, data.domains[input.id]));
    });
  }
  async getDomain(id: string) {
    return (await this.snapshot()).data.domains[id];
  }
  async listDomains(orgId?: string) {
    const all = Object.values((await this.snapshot()).data.domains);
    return all.filter((d) => !orgId || d.orgId === orgId).sort(byId);
  }

  async createKey(orgId: string, kind: ApiKeyRecord['kind']) {
    return this.update((data) => {
      FileTenantStore.requireOrg(data, orgId);
      const created = newKey(orgId, kind);
      data.keys[created.record.id] = created.record;
      return created;
    });
  }
  async listKeys(orgId?: string) {
    const all = Object.values((await this.snapshot()).data.keys);
    return all.filter((k) => !orgId || k.orgId === orgId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
  async revokeKey(id: string): Promise<ApiKeyRecord> {
    return this.update((data) => {
      const key = data.keys[id];
      if (!key) throw new UnknownTenantError('key', id);
      key.revokedAt ??= new Date().toISOString();
      return key;
    });
  }

  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    const kind = kindOfSecret(secret);
    if (!kind) return undefined;
    const hash = hashSecret(secret);
    const key = (await this.snapshot()).byHash.get(hash);
    if (!key || !sameHash(key.hash, hash) || key.kind !== kind || key.revokedAt) return undefined;
    return key;
  }

  async ping(): Promise<void> {
    await this.snapshot();
  }
  async close(): Promise<void> {}
}

export { TenantConflictError };
