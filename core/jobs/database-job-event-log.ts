import { sql, type Selectable } from 'kysely';
import { json, parseJson, type Database, type JobEventsTable, type Queries } from '../db/index.js';
import { putJobRecord } from './database-job-store.js';
import { EVENT_PAGE, isJobEventType, type JobEvent, type JobEventData, type JobEventLog, type NewJobEvent, type StartedTurn } from './job-events.js';
import { waitForEvents, type JobWakeups } from './job-wakeups.js';

type EventRow = Pick<Selectable<JobEventsTable>, 'seq' | 'job_id' | 'project_id' | 'type' | 'time' | 'data_json'>;

const EVENT_COLUMNS = ['seq', 'job_id', 'project_id', 'type', 'time', 'data_json'] as const;

/** A stored row as readers see it; a row of a type this build does not know reads as missing. */
function eventOf(row: EventRow | undefined): JobEvent | undefined {
  if (!row || !isJobEventType(row.type)) return undefined;
  return { seq: row.seq, type: row.type, time: row.time, jobId: row.job_id, projectId: row.project_id, data: parseJson<JobEventData>(row.data_json) };
}

function startedTurnOf(data: JobEventData): StartedTurn {
  const ids = Array.isArray(data.messageIds) ? data.messageIds.filter((id): id is string => typeof id === 'string') : [];
  return { turn: typeof data.turn === 'number' ? data.turn : 0, messageIds: ids };
}

const isEvent = (e: JobEvent | undefined): e is JobEvent => e !== undefined;

/**
 * Appends in an open transaction: the job's next sequence number, or the event already stored
 * under the key. PostgreSQL serialises a job's appends on a transaction lock named by the job
 * (SQLite's write transaction already holds the whole file).
 */
export async function appendJobEvent(trx: Queries, dialect: Database['dialect'], event: NewJobEvent): Promise<JobEvent> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${event.jobId}))`.execute(trx);
  const kept = await trx.selectFrom('job_events').select(EVENT_COLUMNS).where('job_id', '=', event.jobId).where('key', '=', event.key).executeTakeFirst();
  if (kept) return eventOf(kept) ?? { seq: kept.seq, ...withoutKey(event) };
  const top = await trx.selectFrom('job_events').select((eb) => eb.fn.max('seq').as('seq')).where('job_id', '=', event.jobId).executeTakeFirst();
  const seq = Number(top?.seq ?? 0) + 1;
  await trx
    .insertInto('job_events')
    .values({ job_id: event.jobId, seq, key: event.key, project_id: event.projectId, type: event.type, time: event.time, data_json: json(event.data) })
    .execute();
  return { seq, ...withoutKey(event) };
}

function withoutKey(event: NewJobEvent): Omit<JobEvent, 'seq'> {
  const { key: _key, ...rest } = event;
  return rest;
}

/** The job event log on Quire's database: one row per event, numbered per job; `wakeups` tells its readers of each append. */
export function createJobEventLog(database: Database, wakeups: JobWakeups): JobEventLog {
  const { queries } = database;
  const log: JobEventLog = {
    async append(event) {
      const stored = await database.transaction((trx) => appendJobEvent(trx, database.dialect, event));
      await wakeups.notify(event.jobId);
      return stored;
    },

    async record(job, events) {
      const stored = await database.transaction(async (trx) => {
        await putJobRecord(trx, job);
        const appended: JobEvent[] = [];
        for (const event of events) appended.push(await appendJobEvent(trx, database.dialect, event));
        return appended;
      });
      await wakeups.notify(job.id);
      return stored;
    },

    async startedTurns(jobId) {
      const rows = await queries.selectFrom('job_events').select('data_json').where('job_id', '=', jobId).where('type', '=', 'turn.started').orderBy('seq').execute();
      return rows.map((row) => startedTurnOf(parseJson<JobEventData>(row.data_json)));
    },

    async after(jobId, afterSeq, limit = EVENT_PAGE) {
      const rows = await queries.selectFrom('job_events').select(EVENT_COLUMNS).where('job_id', '=', jobId).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
      return rows.map(eventOf).filter(isEvent);
    },

    async latest(jobId) {
      return eventOf(await queries.selectFrom('job_events').select(EVENT_COLUMNS).where('job_id', '=', jobId).orderBy('seq', 'desc').limit(1).executeTakeFirst());
    },

    waitForEvents: (jobId, afterSeq, options) => waitForEvents(log, wakeups, jobId, afterSeq, options),

    async forget(jobId) {
      const result = await queries.deleteFrom('job_events').where('job_id', '=', jobId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
  return log;
}
