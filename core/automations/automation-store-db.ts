import { json, type Database } from '../db/index.js';
import { parseAutomationJson, parseAutomationRunJson } from './automation-record.js';
import { compareOldestFirst, type AutomationStore, type StoredAutomation } from './automation-store.js';

function storedOf(row: { record_json: string; last_run_json: string | null }): StoredAutomation | undefined {
  const record = parseAutomationJson(row.record_json);
  if (!record) return undefined;
  return { record, lastRun: row.last_run_json === null ? null : (parseAutomationRunJson(row.last_run_json) ?? null), runVersion: row.last_run_json };
}

/** Automations in the database, written by the API, the CLI and the worker. */
export function createAutomationStore(database: Database): AutomationStore {
  const db = database.queries;
  return {
    async create(record) {
      await db
        .insertInto('automations')
        .values({ project_id: record.projectId, id: record.id, created_at: record.createdAt, record_json: json(record), last_run_json: null })
        .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing())
        .execute();
    },

    async get(projectId, id) {
      const row = await db.selectFrom('automations').select(['record_json', 'last_run_json']).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
      return row ? storedOf(row) : undefined;
    },

    async list(projectId) {
      const rows = await db.selectFrom('automations').select(['record_json', 'last_run_json']).where('project_id', '=', projectId).execute();
      // Ordered here, as every listing of records is: oldest first, ties by id.
      return rows.map(storedOf).filter((s): s is StoredAutomation => s !== undefined).sort(compareOldestFirst);
    },

    async remove(projectId, id) {
      await db.deleteFrom('automations').where('project_id', '=', projectId).where('id', '=', id).execute();
    },

    async noteRun(projectId, id, run) {
      await db.updateTable('automations').set({ last_run_json: json(run) }).where('project_id', '=', projectId).where('id', '=', id).execute();
    },

    async claimRun(projectId, id, runVersion, run) {
      const result = await db
        .updateTable('automations')
        .set({ last_run_json: json(run) })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where('last_run_json', runVersion === null ? 'is' : '=', runVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
