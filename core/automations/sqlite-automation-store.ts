import path from 'node:path';
import { openDatabase, statement, writeTransaction, type SqliteDatabase } from '../store/sqlite.js';
import { parseAutomationJson, parseAutomationRunJson, type AutomationRecord, type AutomationRun } from './automation-record.js';
import { compareOldestFirst, type AutomationStore, type StoredAutomation } from './automation-store.js';

const SCHEMA = `
  CREATE TABLE automations (
    project_id TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    last_run TEXT,
    PRIMARY KEY (project_id, id)
  );
`;

function storedOf(row: unknown): StoredAutomation | undefined {
  if (typeof row !== 'object' || row === null || !('body' in row) || typeof row.body !== 'string') return undefined;
  const record = parseAutomationJson(row.body);
  if (!record) return undefined;
  const lastRun = 'last_run' in row && typeof row.last_run === 'string' ? (parseAutomationRunJson(row.last_run) ?? null) : null;
  return { record, lastRun };
}

/** The embedded default: `automations.db` under the data directory, written by the API, the CLI and the worker. */
export class SqliteAutomationStore implements AutomationStore {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    // An operator was told the automation exists: its commit reaches the disk.
    this.db = openDatabase(file, { durability: 'full', schema: SCHEMA });
  }

  static inDataDir(dataDir: string): SqliteAutomationStore {
    return new SqliteAutomationStore(path.join(dataDir, 'automations.db'));
  }

  private sql(text: string) {
    return statement(this.db, text);
  }

  async create(record: AutomationRecord): Promise<void> {
    await writeTransaction(this.db, () =>
      this.sql('INSERT OR IGNORE INTO automations (project_id, id, body) VALUES (?, ?, ?)').run(record.projectId, record.id, JSON.stringify(record)),
    );
  }

  async get(projectId: string, id: string): Promise<StoredAutomation | undefined> {
    return storedOf(this.sql('SELECT body, last_run FROM automations WHERE project_id = ? AND id = ?').get(projectId, id));
  }

  async list(projectId: string): Promise<StoredAutomation[]> {
    const rows = this.sql('SELECT body, last_run FROM automations WHERE project_id = ?').all(projectId);
    return rows.map(storedOf).filter((s): s is StoredAutomation => s !== undefined).sort(compareOldestFirst);
  }

  async remove(projectId: string, id: string): Promise<void> {
    await writeTransaction(this.db, () => this.sql('DELETE FROM automations WHERE project_id = ? AND id = ?').run(projectId, id));
  }

  async noteRun(projectId: string, id: string, run: AutomationRun): Promise<void> {
    await writeTransaction(this.db, () =>
      this.sql('UPDATE automations SET last_run = ? WHERE project_id = ? AND id = ?').run(JSON.stringify(run), projectId, id),
    );
  }
}
