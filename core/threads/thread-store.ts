import { compiledShapes, json, parseJson, type Database, type Queries } from '../db/index.js';
import { eraseReaderIn } from './reader-erasure.js';
import { DAY_MS, type ThreadAppend, type ThreadExchange, type ThreadRef, type ThreadStore, type ThreadTranscript } from './types.js';

/** Threads a retention sweep deletes per transaction. */
const SWEEP_SLICE = 200;
/** Rows per multi-row statement of an append, within both dialects' limits on parameters. */
const WRITE_ROWS = 500;

const threadKey = (orgId: string, threadId: string) => `${orgId}\u0000${threadId}`;

export interface ThreadStoreOptions {
  /** A thread untouched this long is deleted: when read, or by the hourly sweep. */
  retentionDays: number;
  now?: () => Date;
}

/** The thread store with its retention sweep, which a test may run directly. */
export interface SweepingThreadStore extends ThreadStore {
  /** Deletes every thread last touched before the retention period, in slices; returns how many. */
  sweep(now?: number): Promise<number>;
}

/**
 * Threads in the database: a row per (org, thread) and its exchanges numbered in append order.
 * An append writes both in one transaction; the thread row's upsert serialises concurrent appends
 * to the same thread, so positions never collide.
 */
export function createThreadStore(database: Database, options: ThreadStoreOptions): SweepingThreadStore {
  const now = options.now ?? (() => new Date());
  const retentionMs = options.retentionDays * DAY_MS;
  let lastSweep = 0;

  const forget = (orgId: string, threadId: string) =>
    database.transaction(async (trx) => {
      await trx.deleteFrom('thread_exchanges').where('org_id', '=', orgId).where('thread_id', '=', threadId).execute();
      await trx.deleteFrom('threads').where('org_id', '=', orgId).where('thread_id', '=', threadId).execute();
    });

  const sweep = async (at = now().getTime()): Promise<number> => {
    const cutoff = new Date(at - retentionMs).toISOString();
    let removed = 0;
    for (;;) {
      const deleted = await database.transaction(async (trx) => {
        const expired = await trx.selectFrom('threads').select(['org_id', 'thread_id']).where('updated_at', '<', cutoff).limit(SWEEP_SLICE).execute();
        for (const t of expired) {
          await trx.deleteFrom('thread_exchanges').where('org_id', '=', t.org_id).where('thread_id', '=', t.thread_id).execute();
          await trx.deleteFrom('threads').where('org_id', '=', t.org_id).where('thread_id', '=', t.thread_id).execute();
        }
        return expired.length;
      });
      removed += deleted;
      if (deleted < SWEEP_SLICE) return removed;
      // The event loop serves requests between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  /** At most once an hour, off the request path; a failed sweep is retried in an hour. */
  const sweepNowAndThen = () => {
    const at = now().getTime();
    if (at - lastSweep < 3_600_000) return;
    lastSweep = at;
    void sweep(at).catch(() => undefined);
  };

  // The append's three statements, compiled once per number of rows (see `compiledShapes`).
  const THREAD_COLUMNS = 6;
  const upsertThreads = compiledShapes((rows: number, slot) =>
    database.queries
      .insertInto('threads')
      .values(
        Array.from({ length: rows }, (_, r) => ({
          org_id: slot(r * THREAD_COLUMNS),
          thread_id: slot(r * THREAD_COLUMNS + 1),
          domain_id: slot(r * THREAD_COLUMNS + 2),
          key_hash: slot(r * THREAD_COLUMNS + 3),
          created_at: slot(r * THREAD_COLUMNS + 4),
          updated_at: slot(r * THREAD_COLUMNS + 5),
        })),
      )
      .onConflict((oc) => oc.columns(['org_id', 'thread_id']).doUpdateSet({ updated_at: (eb) => eb.ref('excluded.updated_at') })),
  );
  const lastPositions = compiledShapes((shape: string, slot) => {
    const [orgs, threads] = shape.split('/').map(Number) as [number, number];
    return database.queries
      .selectFrom('thread_exchanges')
      .select(['org_id', 'thread_id', (eb) => eb.fn.max('position').as('position')])
      .where('org_id', 'in', Array.from({ length: orgs }, (_, i) => slot(i)))
      .where('thread_id', 'in', Array.from({ length: threads }, (_, i) => slot(orgs + i)))
      .groupBy(['org_id', 'thread_id']);
  });
  const EXCHANGE_COLUMNS = 4;
  const insertExchanges = compiledShapes((rows: number, slot) =>
    database.queries.insertInto('thread_exchanges').values(
      Array.from({ length: rows }, (_, r) => ({
        org_id: slot(r * EXCHANGE_COLUMNS),
        thread_id: slot(r * EXCHANGE_COLUMNS + 1),
        position: slot(r * EXCHANGE_COLUMNS + 2) as unknown as number,
        exchange_json: slot(r * EXCHANGE_COLUMNS + 3),
      })),
    ),
  );

  /**
   * Deletes the exchange `messageId` of a thread and every later one: a regenerated answer takes
   * its place. Rare (a reader's regenerate): the thread's exchanges are read to find it.
   */
  const dropFrom = async (trx: Queries, ref: ThreadRef, messageId: string) => {
    const rows = await trx
      .selectFrom('thread_exchanges')
      .select(['position', 'exchange_json'])
      .where('org_id', '=', ref.orgId)
      .where('thread_id', '=', ref.threadId)
      .orderBy('position')
      .execute();
    const from = rows.find((r) => parseJson<ThreadExchange>(r.exchange_json).messageId === messageId);
    if (!from) return;
    await trx.deleteFrom('thread_exchanges').where('org_id', '=', ref.orgId).where('thread_id', '=', ref.threadId).where('position', '>=', from.position).execute();
  };

  /**
   * Appends a batch in three statements whatever its size (and, for a regenerated answer, the
   * deletion of the exchanges it replaces): the threads' rows (the first exchange
   * of a thread creates it, each later one renews its retention and locks the row), the threads'
   * last positions, then every exchange numbered on in the order given.
   */
  const appendIn = async (trx: Queries, entries: ThreadAppend[]) => {
    const threads = new Map<string, { ref: ThreadRef; createdAt: string; updatedAt: string }>();
    for (const { ref, exchange } of entries) {
      const key = threadKey(ref.orgId, ref.threadId);
      const thread = threads.get(key);
      if (thread) thread.updatedAt = exchange.finishedAt;
      else threads.set(key, { ref, createdAt: exchange.startedAt, updatedAt: exchange.finishedAt });
    }
    // In one order, so two batches lock the rows they share in the same order (no deadlock on PostgreSQL).
    const rows = [...threads.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, thread]) => thread);
    for (let i = 0; i < rows.length; i += WRITE_ROWS) {
      const slice = rows.slice(i, i + WRITE_ROWS);
      const values = slice.flatMap(({ ref, createdAt, updatedAt }) => [ref.orgId, ref.threadId, ref.domainId, ref.keyHash ?? null, createdAt, updatedAt]);
      await trx.executeQuery(upsertThreads(slice.length, values));
    }
    // Under the rows' locks no other writer appends to these threads: the positions stay free.
    for (const { ref, replacing } of entries) if (replacing) await dropFrom(trx, ref, replacing);
    const last = new Map<string, number>();
    for (let i = 0; i < rows.length; i += WRITE_ROWS) {
      const slice = rows.slice(i, i + WRITE_ROWS);
      const orgs = [...new Set(slice.map(({ ref }) => ref.orgId))];
      const query = lastPositions(`${orgs.length}/${slice.length}`, [...orgs, ...slice.map(({ ref }) => ref.threadId)]);
      const found = await trx.executeQuery<{ org_id: string; thread_id: string; position: number | string | null }>(query);
      for (const row of found.rows) last.set(threadKey(row.org_id, row.thread_id), Number(row.position ?? 0));
    }
    const exchanges = entries.map(({ ref, exchange }) => {
      const key = threadKey(ref.orgId, ref.threadId);
      const position = (last.get(key) ?? 0) + 1;
      last.set(key, position);
      return [ref.orgId, ref.threadId, position, json(exchange)];
    });
    for (let i = 0; i < exchanges.length; i += WRITE_ROWS) {
      const slice = exchanges.slice(i, i + WRITE_ROWS);
      await trx.executeQuery(insertExchanges(slice.length, slice.flat()));
    }
  };

  return {
    async load(orgId, threadId): Promise<ThreadTranscript | undefined> {
      const thread = await database.queries
        .selectFrom('threads')
        .select(['domain_id', 'key_hash', 'created_at', 'updated_at'])
        .where('org_id', '=', orgId)
        .where('thread_id', '=', threadId)
        .executeTakeFirst();
      if (!thread) return undefined;
      if (now().getTime() - Date.parse(thread.updated_at) > retentionMs) {
        await forget(orgId, threadId);
        return undefined;
      }
      const rows = await database.queries
        .selectFrom('thread_exchanges')
        .select('exchange_json')
        .where('org_id', '=', orgId)
        .where('thread_id', '=', threadId)
        .orderBy('position')
        .execute();
      return {
        threadId,
        orgId,
        domainId: thread.domain_id,
        ...(thread.key_hash === null ? {} : { keyHash: thread.key_hash }),
        createdAt: thread.created_at,
        updatedAt: thread.updated_at,
        exchanges: rows.map((r) => parseJson<ThreadExchange>(r.exchange_json)),
      };
    },

    async append(ref: ThreadRef, exchange: ThreadExchange): Promise<void> {
      await database.transaction((trx) => appendIn(trx, [{ ref, exchange }]));
      sweepNowAndThen();
    },

    async appendAll(entries: ThreadAppend[]): Promise<void> {
      if (entries.length === 0) return;
      // One transaction for a batch of exchanges (the completion sink's round), in the order given.
      await database.transaction((trx) => appendIn(trx, entries));
      sweepNowAndThen();
    },

    async erase(ref): Promise<boolean> {
      return database.transaction(async (trx) => {
        const thread = await trx.selectFrom('threads').select('domain_id').where('org_id', '=', ref.orgId).where('thread_id', '=', ref.threadId).executeTakeFirst();
        // Another domain's thread of the organisation is not this domain's to erase.
        const own = thread?.domain_id === ref.domainId;
        if (own) {
          await trx.deleteFrom('thread_exchanges').where('org_id', '=', ref.orgId).where('thread_id', '=', ref.threadId).execute();
          await trx.deleteFrom('threads').where('org_id', '=', ref.orgId).where('thread_id', '=', ref.threadId).execute();
        }
        // Analytics keep a conversation longer than the thread (QUIRE_ANALYTICS_RETENTION_DAYS): it goes too.
        const answers = await trx.deleteFrom('answers').where('domain_id', '=', ref.domainId).where('thread_id', '=', ref.threadId).executeTakeFirst();
        const ratings = await trx.deleteFrom('feedback').where('domain_id', '=', ref.domainId).where('thread_id', '=', ref.threadId).executeTakeFirst();
        return own || Number(answers.numDeletedRows) + Number(ratings.numDeletedRows) > 0;
      });
    },

    eraseReader: (ref) => database.transaction((trx) => eraseReaderIn(trx, database.dialect, ref)),

    sweep,
  };
}
