import type { CompiledQuery, Selectable } from 'kysely';
import type { JobMessage } from '../contracts/agent-job.js';
import { compiledShapes, json, type Database, type JobsTable, type Queries } from '../db/index.js';
import { ProjectDeletedError, ProjectDeletingError } from './closed-project.js';
import { parseJobRecordJson } from './job-schema.js';
import type { JobRecord } from './job-record.js';
import { decodeCursor, encodeCursor, type JobListQuery, type JobPage, type JobRef, type JobStore } from './job-store.js';

const recordOf = (row: Pick<Selectable<JobsTable>, 'record_json'> | undefined): JobRecord | undefined =>
  row === undefined ? undefined : parseJobRecordJson(row.record_json);

function rowOf(record: JobRecord): JobsTable {
  return {
    id: record.id,
    project_id: record.projectId,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    archived_at: record.archivedAt,
    revision: record.revision,
    record_json: json(record),
  };
}

async function readRecord(queries: Queries, projectId: string, jobId: string): Promise<JobRecord | undefined> {
  const row = await queries.selectFrom('jobs').select('record_json').where('id', '=', jobId).where('project_id', '=', projectId).executeTakeFirst();
  return recordOf(row);
}

/**
 * Keeps `record` unless the stored one has a higher revision; returns what is kept. One
 * statement (an upsert whose update is conditional), so concurrent writers of one job agree
 * on both dialects; `queries` may be an open transaction.
 */
export async function putJobRecord(queries: Queries, record: JobRecord): Promise<JobRecord> {
  const row = rowOf(record);
  const result = await queries
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ status: row.status, updated_at: row.updated_at, archived_at: row.archived_at, revision: row.revision, record_json: row.record_json })
        .where('jobs.revision', '<=', row.revision),
    )
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return record;
  return (await readRecord(queries, record.projectId, record.id)) ?? record;
}

/** Deletes a job, its messages and its events in an open transaction; true when the job was there. */
export async function deleteJob(trx: Queries, jobId: string): Promise<{ job: boolean; events: number }> {
  const events = await trx.deleteFrom('job_events').where('job_id', '=', jobId).executeTakeFirst();
  await trx.deleteFrom('job_messages').where('job_id', '=', jobId).execute();
  const job = await trx.deleteFrom('jobs').where('id', '=', jobId).executeTakeFirst();
  return { job: Number(job.numDeletedRows) > 0, events: Number(events.numDeletedRows) };
}

/** Keeps messages of a job; the first write of an id wins, so a retried request cannot change a message already sent. */
async function insertMessages(queries: Queries, projectId: string, jobId: string, messages: readonly JobMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await queries
    .insertInto('job_messages')
    .values(messages.map((message) => ({ project_id: projectId, job_id: jobId, id: message.id, prompt: message.prompt })))
    .onConflict((oc) => oc.columns(['job_id', 'id']).doNothing())
    .execute();
}

const JOB_REFUSED = 'no job can be started for it';
const MESSAGE_REFUSED = 'no message can be sent to its jobs';

/**
 * A new job's (or a new message's) project: not one whose delete has begun (its jobs are being archived) or finished
 * (another API process's tenant cache may still hold it). Read in the create's transaction and held
 * until it ends (a share lock on PostgreSQL; SQLite's write transaction is one at a time), as
 * requireOrg holds an organisation: a delete that marks or deletes the project meanwhile waits for
 * the create, and then finds its job. A project id with no record that was never deleted (a store
 * used without tenants) is let through.
 */
async function requireOpenProject(trx: Queries, readMark: CompiledQuery<{ deleting_since: string | null }>, projectId: string, refused = JOB_REFUSED): Promise<void> {
  const [project] = (await trx.executeQuery(readMark)).rows;
  if (project?.deleting_since) throw new ProjectDeletingError(`project '${projectId}' is being deleted: ${refused}`);
  if (project) return;
  const retired = await trx.selectFrom('retired_ids').select('id').where('kind', '=', 'project').where('id', '=', projectId).executeTakeFirst();
  if (retired) throw new ProjectDeletedError();
}

/** The job store on Quire's database: one row per job (its record as JSON beside the columns a query filters on), one per message. */
export function createJobStore(database: Database): JobStore {
  const { queries } = database;
  // The create's statements, built once (per number of messages) rather than per create: building
  // them cost about as much CPU as running them (see `compiledShapes`).
  const insertNewJob = compiledShapes((_rows: 1, slot) =>
    queries
      .insertInto('jobs')
      .values({
        id: slot(0),
        project_id: slot(1),
        status: slot(2),
        created_at: slot(3),
        updated_at: slot(4),
        archived_at: slot(5),
        revision: slot(6) as unknown as number,
        record_json: slot(7),
      })
      // Never replaces a record that got there first (it is newer).
      .onConflict((oc) => oc.column('id').doNothing()),
  );
  const readProjectMark = compiledShapes((_rows: 1, slot) => {
    const select = queries.selectFrom('projects').select('deleting_since').where('id', '=', slot(0));
    return database.dialect === 'postgres' ? select.forShare() : select;
  });
  const markOf = (projectId: string) => readProjectMark(1, [projectId]) as CompiledQuery<{ deleting_since: string | null }>;
  const insertNewMessages = compiledShapes((rows: number, slot) =>
    queries
      .insertInto('job_messages')
      .values(Array.from({ length: rows }, (_, r) => ({ project_id: slot(r * 4), job_id: slot(r * 4 + 1), id: slot(r * 4 + 2), prompt: slot(r * 4 + 3) })))
      .onConflict((oc) => oc.columns(['job_id', 'id']).doNothing()),
  );
  return {
    put: (record) => putJobRecord(queries, record),

    async create(record, messages = []) {
      const row = rowOf(record);
      const jobValues = [row.id, row.project_id, row.status, row.created_at, row.updated_at, row.archived_at, row.revision, row.record_json];
      const messageValues = messages.flatMap((m) => [record.projectId, record.id, m.id, m.prompt]);
      return database.transaction(async (trx) => {
        await requireOpenProject(trx, markOf(record.projectId), record.projectId);
        const inserted = await trx.executeQuery(insertNewJob(1, jobValues));
        if (messages.length > 0) await trx.executeQuery(insertNewMessages(messages.length, messageValues));
        return Number(inserted.numAffectedRows ?? 0n) > 0;
      });
    },

    requireOpenProject: (projectId) => requireOpenProject(queries, markOf(projectId), projectId),

    async putMessage(projectId, jobId, message) {
      // A follow-up is refused as a create is: it would make a finished job of the project active again.
      await database.transaction(async (trx) => {
        await requireOpenProject(trx, markOf(projectId), projectId, MESSAGE_REFUSED);
        await insertMessages(trx, projectId, jobId, [message]);
      });
    },

    async getMessages(projectId, jobId, ids) {
      if (ids.length === 0) return [];
      const rows = await queries.selectFrom('job_messages').select(['id', 'prompt']).where('project_id', '=', projectId).where('job_id', '=', jobId).where('id', 'in', ids).execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [{ id: row.id, prompt: row.prompt }] : [];
      });
    },

    async remove(_projectId, jobId) {
      await database.transaction((trx) => deleteJob(trx, jobId));
    },

    get: (projectId, jobId) => readRecord(queries, projectId, jobId),

    async archivedBefore(before, limit): Promise<JobRef[]> {
      const rows = await queries
        .selectFrom('jobs')
        .select(['project_id', 'id'])
        .where('status', '=', 'archived')
        .where('archived_at', '<', before)
        .orderBy('archived_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ projectId: row.project_id, jobId: row.id }));
    },

    async unchangedBefore(statuses, before, limit) {
      const rows = await queries
        .selectFrom('jobs')
        .select('record_json')
        .where('status', 'in', [...statuses])
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(recordOf).filter((r): r is JobRecord => r !== undefined);
    },

    async list(projectId, query: JobListQuery): Promise<JobPage> {
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      let select = queries.selectFrom('jobs').select('record_json').where('project_id', '=', projectId);
      if (query.status) select = select.where('status', '=', query.status);
      if (after) {
        select = select.where((eb) =>
          eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
        );
      }
      // Newest first by (created_at, id), the order compareNewestFirst defines; one row more tells whether a next page exists.
      const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
      const records = rows.map(recordOf).filter((r): r is JobRecord => r !== undefined);
      const jobs = records.slice(0, query.limit);
      const last = jobs.at(-1);
      return { jobs, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
    },
  };
}
