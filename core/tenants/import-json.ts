import fs from 'node:fs';
import { writeTransaction, statement, type SqliteDatabase } from '../store/sqlite.js';
import type { ApiKeyRecord, Domain, Organisation, Project } from './types.js';

/** The tenant file of earlier versions (`tenants.json`), read once to move its records into the database. */
interface TenantFile {
  orgs?: Record<string, Organisation>;
  projects?: Record<string, Project>;
  domains?: Record<string, Domain>;
  keys?: Record<string, ApiKeyRecord>;
}

/**
 * Moves the records of an earlier version's `tenants.json` into the database once, so an upgrade
 * keeps its organisations and keys; the file is then renamed `tenants.json.imported`.
 */
export async function importTenantFile(db: SqliteDatabase, file: string): Promise<void> {
  if (!fs.existsSync(file)) return;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as TenantFile;
  // Idempotent inserts, and the rename after the commit: processes importing at once agree, and a crash leaves the file.
  await writeTransaction(db, () => {
    const sql = (text: string) => statement(db, text);
    for (const o of Object.values(data.orgs ?? {})) sql('INSERT OR IGNORE INTO orgs (id, body) VALUES (?, ?)').run(o.id, JSON.stringify(o));
    for (const p of Object.values(data.projects ?? {}))
      sql('INSERT OR IGNORE INTO projects (id, org_id, body) VALUES (?, ?, ?)').run(p.id, p.orgId, JSON.stringify(p));
    for (const d of Object.values(data.domains ?? {}))
      sql('INSERT OR IGNORE INTO domains (id, org_id, body) VALUES (?, ?, ?)').run(d.id, d.orgId, JSON.stringify(d));
    for (const k of Object.values(data.keys ?? {}))
      sql('INSERT OR IGNORE INTO keys (id, org_id, hash, created_at, body) VALUES (?, ?, ?, ?, ?)').run(k.id, k.orgId, k.hash, k.createdAt, JSON.stringify(k));
  });
  try {
    fs.renameSync(file, `${file}.imported`);
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) throw err;
  }
}
