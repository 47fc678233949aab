import { sql, type RawBuilder } from 'kysely';
import type { Database, Queries } from '../db/index.js';
import type { ReaderErasure, ReaderRef } from './types.js';

/** Thread ids per statement, within both dialects' limits on parameters. */
const IDS_PER_STATEMENT = 500;

/**
 * The `fp` of a row's JSON column (`exchange_json`, `answer_json`), as text. It is a field of the
 * stored JSON rather than a column: an erasure is rare and reads only the domain's rows, while a
 * column would need every writer and a backfill of every stored row.
 */
function fpOf(dialect: Database['dialect'], column: 'e.exchange_json' | 'answers.answer_json'): RawBuilder<string | null> {
  return dialect === 'postgres' ? sql`(${sql.ref(column)}::json ->> 'fp')` : sql`json_extract(${sql.ref(column)}, '$.fp')`;
}

function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_STATEMENT) out.push(items.slice(i, i + IDS_PER_STATEMENT));
  return out;
}

/**
 * Erases, in the open transaction `trx`, what one reader left on a domain: the domain's threads
 * any of whose exchanges carries the fingerprint (with all their exchanges), the answer records
 * that carry it or belong to those threads (or to a thread an answer carrying it names, whose
 * thread has aged out before its analytics), and the ratings of those threads. The daily counts,
 * which name no one, stay.
 */
export async function eraseReaderIn(trx: Queries, dialect: Database['dialect'], ref: ReaderRef): Promise<ReaderErasure> {
  const inThreads = await trx
    .selectFrom('thread_exchanges as e')
    .innerJoin('threads as t', (join) => join.onRef('t.org_id', '=', 'e.org_id').onRef('t.thread_id', '=', 'e.thread_id'))
    .select('e.thread_id')
    .distinct()
    .where('t.org_id', '=', ref.orgId)
    .where('t.domain_id', '=', ref.domainId)
    .where(fpOf(dialect, 'e.exchange_json'), '=', ref.fp)
    .execute();
  const inAnswers = await trx
    .selectFrom('answers')
    .select('thread_id')
    .distinct()
    .where('domain_id', '=', ref.domainId)
    .where('thread_id', 'is not', null)
    .where(fpOf(dialect, 'answers.answer_json'), '=', ref.fp)
    .execute();
  const threadIds = [...new Set([...inThreads.map((r) => r.thread_id), ...inAnswers.flatMap((r) => (r.thread_id === null ? [] : [r.thread_id]))])];

  let threads = 0;
  let answers = 0;
  let feedback = 0;
  for (const ids of slices(threadIds)) {
    // Only the domain's own threads: the organisation's other domains may hold a thread of the same id.
    const own = trx.selectFrom('threads').select('thread_id').where('org_id', '=', ref.orgId).where('domain_id', '=', ref.domainId).where('thread_id', 'in', ids);
    await trx.deleteFrom('thread_exchanges').where('org_id', '=', ref.orgId).where('thread_id', 'in', own).execute();
    const gone = await trx.deleteFrom('threads').where('org_id', '=', ref.orgId).where('domain_id', '=', ref.domainId).where('thread_id', 'in', ids).executeTakeFirst();
    threads += Number(gone.numDeletedRows);
    const theirAnswers = await trx.deleteFrom('answers').where('domain_id', '=', ref.domainId).where('thread_id', 'in', ids).executeTakeFirst();
    answers += Number(theirAnswers.numDeletedRows);
    const ratings = await trx.deleteFrom('feedback').where('domain_id', '=', ref.domainId).where('thread_id', 'in', ids).executeTakeFirst();
    feedback += Number(ratings.numDeletedRows);
  }
  // The stateless doors' answers (no thread) that carry it.
  const carrying = await trx.deleteFrom('answers').where('domain_id', '=', ref.domainId).where(fpOf(dialect, 'answers.answer_json'), '=', ref.fp).executeTakeFirst();
  answers += Number(carrying.numDeletedRows);
  return { threads, answers, feedback };
}
