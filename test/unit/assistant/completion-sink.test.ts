import assert from 'node:assert/strict';
import { storedCompletionOf, type CompletionRecord } from '../../../api/assistant/completion-record.js';
import { createAnalyticsStore } from '../../../core/analytics/index.js';
import { storeAnswers, storeExchanges, type CompletionStores, type StoreOptions, type StoredCompletion, type WriterLog } from '../../../core/completions/index.js';
import { DatabaseUnavailableError } from '../../../core/db/errors.js';
import { createThreadStore } from '../../../core/threads/index.js';
import { testDatabase } from '../../support/databases.js';

const record = (threadId: string, question: string): CompletionRecord => ({
  trace: { id: `msg_${question}`, orgId: 'acme', domainId: 'docs', threadId, question, surface: 'assistant', caller: 'browser', fp: 'fp', currentPath: null },
  thread: { orgId: 'acme', threadId, domainId: 'docs' },
  answer: `About ${question}.`,
  citations: [],
  mode: 'extractive',
  outcome: 'complete',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
});

/** What the writer logged, line by line. */
function capturedLog(): WriterLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (_fields, message) => void lines.push(`warn ${message}`), error: (_fields, message) => void lines.push(`error ${message}`) };
}

/** The stores the writer thread writes to, over a fresh SQLite database. */
async function stores() {
  const database = await testDatabase('sqlite');
  return { threads: createThreadStore(database, { retentionDays: 30, now: () => new Date('2026-01-02T00:00:00Z') }), analytics: createAnalyticsStore(database) };
}

/** A round of the writer thread: the exchanges, then the answer records. */
async function storeCompletions(stores: CompletionStores, batch: StoredCompletion[], options: StoreOptions): Promise<void> {
  await storeExchanges(stores.threads, batch, options);
  await storeAnswers(stores.analytics, batch, options);
}

describe('storing completions (the completion writer thread\'s rounds)', () => {
  it('waits out a database outage: the exchanges answered meanwhile are stored once it is back', async () => {
    const real = await stores();
    let failures = 3;
    const flaky: CompletionStores = {
      ...real,
      threads: {
        load: real.threads.load,
        async appendAll(entries) {
          if (failures-- > 0) throw new DatabaseUnavailableError();
          await real.threads.appendAll(entries);
        },
      },
    };
    const log = capturedLog();
    await storeCompletions(flaky, [storedCompletionOf(record('t1', 'install'), 1), storedCompletionOf(record('t1', 'upgrade'), 2)], { retryForMs: 60_000, log });
    assert.equal(failures, -1, 'written on the fourth attempt');
    assert.deepEqual(log.lines, Array(3).fill('warn assistant threads wait for the database'));
    const stored = await real.threads.load('acme', 't1');
    assert.deepEqual(stored?.exchanges.map((e) => e.question), ['install', 'upgrade']);
    const answers = await real.analytics.threadAnswers('docs', 't1');
    assert.deepEqual(answers.map((a) => [a.question, a.resolution, a.unansweredReason]), [['install', 'unanswered', 'no_passages'], ['upgrade', 'unanswered', 'no_passages']]);
  });

  it('gives up on an error that is not an outage, logs it, and still records the answers', async () => {
    const real = await stores();
    const broken: CompletionStores = { ...real, threads: { load: real.threads.load, appendAll: () => Promise.reject(new Error('constraint violated')) } };
    const log = capturedLog();
    await storeCompletions(broken, [storedCompletionOf(record('t1', 'lost'), 1)], { retryForMs: 60_000, log });
    assert.deepEqual(log.lines, ['error assistant threads not stored']);
    assert.equal(await real.threads.load('acme', 't1'), undefined);
    assert.deepEqual((await real.analytics.threadAnswers('docs', 't1')).map((a) => a.question), ['lost']);
  });

  it('writes a batch the database refuses one completion at a time: only the one it refuses again is lost, and logged', async () => {
    const real = await stores();
    const refusing: CompletionStores = {
      threads: {
        load: real.threads.load,
        async appendAll(entries) {
          if (entries.some((e) => e.exchange.question === 'bad')) throw new Error('value too long for type character varying');
          await real.threads.appendAll(entries);
        },
      },
      analytics: {
        async write(events) {
          if (events.some((e) => e.kind === 'answer' && e.record.question === 'bad')) throw new Error('value too long for type character varying');
          await real.analytics.write(events);
        },
      },
    };
    const log = capturedLog();
    const batch = [storedCompletionOf(record('t1', 'install'), 1), storedCompletionOf(record('t2', 'bad'), 2), storedCompletionOf(record('t1', 'upgrade'), 3)];
    await storeCompletions(refusing, batch, { retryForMs: 60_000, log });
    assert.deepEqual((await real.threads.load('acme', 't1'))?.exchanges.map((e) => e.question), ['install', 'upgrade']);
    assert.equal(await real.threads.load('acme', 't2'), undefined);
    assert.deepEqual((await real.analytics.threadAnswers('docs', 't1')).map((a) => a.question), ['install', 'upgrade']);
    assert.deepEqual(log.lines, ['error assistant threads not stored', 'error analytics answers not stored']);
  });

  it('replays a batch a stopped writer may have committed: what is already stored is not stored again', async () => {
    const real = await stores();
    const log = capturedLog();
    const first = [storedCompletionOf(record('t1', 'install'), 1), storedCompletionOf(record('t2', 'upgrade'), 2)];
    await storeCompletions(real, first, { retryForMs: 60_000, log });
    await storeCompletions(real, [...first, storedCompletionOf(record('t1', 'rollback'), 3)], { retryForMs: 60_000, log, replay: true });
    assert.deepEqual((await real.threads.load('acme', 't1'))?.exchanges.map((e) => e.question), ['install', 'rollback']);
    assert.deepEqual((await real.threads.load('acme', 't2'))?.exchanges.map((e) => e.question), ['upgrade']);
    assert.equal((await real.analytics.threadAnswers('docs', 't1')).length, 2);
    assert.deepEqual(log.lines, []);
  });
});
