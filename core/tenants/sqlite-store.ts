import path from 'node:path';
import { bodyOf, openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { importTenantFile } from './import-json.js';
import { hashSecret, kindOfSecret, sameHash } from './keys.js';
import { mergeDomain, mergeProject, newKey, newOrg } from './records.js';
import {
  type ApiKeyRecord,
  type Domain,
  type DomainInput,
  type Organisation,
  type Project,
  type ProjectInput,
  type TenantStore,
  UnknownTenantError,
} from './types.js';

const SCHEMA = `
  CREATE TABLE orgs (id TEXT PRIMARY KEY, body TEXT NOT NULL);
  CREATE TABLE projects (id TEXT PRIMARY KEY, org_id TEXT NOT NULL, body TEXT NOT NULL);
  CREATE TABLE domains (id TEXT PRIMARY KEY, org_id TEXT NOT NULL, body TEXT NOT NULL);
  CREATE TABLE keys (id TEXT PRIMARY KEY, org_id TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, body TEXT NOT NULL);
`;

function parse<T>(row: unknown): T | undefined {
  const body = bodyOf(row);
  return body === undefined ? undefined : (JSON.parse(body) as T);
}

/**
 * The embedded default: `tenants.db` under the data directory. Every read is a query (a few
 * microseconds), so a key the CLI revoked a moment ago is refused on the next request.
 */
export class SqliteTenantStore implements TenantStore {
  private readonly db: SqliteDatabase;
  /** Earlier versions kept tenants in `tenants.json`; its records are moved in before the first use. */
  private imported: Promise<void> | undefined;

  constructor(file: string, private readonly legacyFile?: string) {
    this.db = openDatabase(file, { durability: 'full', schema: SCHEMA });
  }

  private ready(): Promise<void> {
    return (this.imported ??= this.legacyFile ? importTenantFile(this.db, this.legacyFile) : Promise.resolve());
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  static inDataDir(dataDir: string): SqliteTenantStore {
    return new SqliteTenantStore(path.join(dataDir, 'tenants.db'), path.join(dataDir, 'tenants.json'));
  }

  private one<T>(table: 'orgs' | 'projects' | 'domains' | 'keys', id: string): T | undefined {
    return parse<T>(this.sql(`SELECT body FROM ${table} WHERE id = ?`).get(id));
  }

  private many<T>(table: 'orgs' | 'projects' | 'domains' | 'keys', orgId: string | undefined, order = 'id'): T[] {
    const where = orgId === undefined ? '' : table === 'orgs' ? 'WHERE id = ?' : 'WHERE org_id = ?';
    const rows = this.sql(`SELECT body FROM ${table} ${where} ORDER BY ${order}`).all(...(orgId === undefined ? [] : [orgId]));
    return rows.map((r) => parse<T>(r)).filter((r): r is T => r !== undefined);
  }

  private requireOrg(orgId: string): void {
    if (!this.sql('SELECT 1 FROM orgs WHERE id = ?').get(orgId)) throw new UnknownTenantError('organisation', orgId);
  }

  async addOrg(id: string, limits?: Organisation['limits']): Promise<Organisation> {
    await this.ready();
    return writeTransaction(this.db, () => {
        const existing = this.one<Organisation>('orgs', id);
        const org = existing ? { ...existing, ...(limits ? { limits } : {}) } : newOrg(id, limits);
        this.sql('INSERT OR REPLACE INTO orgs (id, body) VALUES (?, ?)').run(id, JSON.stringify(org));
        return org;
      });
  }
  async getOrg(id: string) {
    await this.ready();
    return this.one<Organisation>('orgs', id);
  }
  async listOrgs() {
    await this.ready();
    return this.many<Organisation>('orgs', undefined);
  }

  async putProject(input: ProjectInput): Promise<Project> {
    await this.ready();
    return writeTransaction(this.db, () => {
        this.requireOrg(input.orgId);
        const project = mergeProject(input, this.one<Project>('projects', input.id));
        this.sql('INSERT OR REPLACE INTO projects (id, org_id, body) VALUES (?, ?, ?)').run(input.id, input.orgId, JSON.stringify(project));
        return project;
      });
  }
  async getProject(id: string) {
    await this.ready();
    return this.one<Project>('projects', id);
  }
  async listProjects(orgId?: string) {
    await this.ready();
    return this.many<Project>('projects', orgId);
  }

  async putDomain(input: DomainInput): Promise<Domain> {
    await this.ready();
    return writeTransaction(this.db, () => {
        this.requireOrg(input.orgId);
        const domain = mergeDomain(input, this.one<Domain>('domains', input.id));
        this.sql('INSERT OR REPLACE INTO domains (id, org_id, body) VALUES (?, ?, ?)').run(input.id, input.orgId, JSON.stringify(domain));
        return domain;
      });
  }
  async getDomain(id: string) {
    await this.ready();
    return this.one<Domain>('domains', id);
  }
  async listDomains(orgId?: string) {
    await this.ready();
    return this.many<Domain>('domains', orgId);
  }

  async createKey(orgId: string, kind: ApiKeyRecord['kind']) {
    await this.ready();
    return writeTransaction(this.db, () => {
        this.requireOrg(orgId);
        const created = newKey(orgId, kind);
        const { record } = created;
        this.sql('INSERT INTO keys (id, org_id, hash, created_at, body) VALUES (?, ?, ?, ?, ?)')
          .run(record.id, orgId, record.hash, record.createdAt, JSON.stringify(record));
        return created;
      });
  }
  async listKeys(orgId?: string) {
    await this.ready();
    return this.many<ApiKeyRecord>('keys', orgId, 'created_at, id');
  }
  async revokeKey(id: string): Promise<ApiKeyRecord> {
    await this.ready();
    return writeTransaction(this.db, () => {
        const key = this.one<ApiKeyRecord>('keys', id);
        if (!key) throw new UnknownTenantError('key', id);
        key.revokedAt ??= new Date().toISOString();
        this.sql('UPDATE keys SET body = ? WHERE id = ?').run(JSON.stringify(key), id);
        return key;
      });
  }

  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    await this.ready();
    const kind = kindOfSecret(secret);
    if (!kind) return undefined;
    const hash = hashSecret(secret);
    const key = parse<ApiKeyRecord>(this.sql('SELECT body FROM keys WHERE hash = ?').get(hash));
    if (!key || !sameHash(key.hash, hash) || key.kind !== kind || key.revokedAt) return undefined;
    return key;
  }

  async ping(): Promise<void> {
    await this.ready();
    this.sql('SELECT 1').get();
  }
  async close(): Promise<void> {}
}
