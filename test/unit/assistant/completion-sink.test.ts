import assert from 'node:assert/strict';
import { CompletionSink } from '../../../api/assistant/completion-sink.js';
import type { CompletionRecord } from '../../../api/assistant/completion-record.js';
import { AnalyticsRecorder, createAnalyticsStore } from '../../../core/analytics/index.js';
import { DatabaseUnavailableError } from '../../../core/db/errors.js';
import { createLogger } from '../../../core/logger.js';
import { createThreadStore, type ThreadStore } from '../../../core/threads/index.js';
import { testDatabase } from '../../support/databases.js';

const logger = createLogger('silent', 'test');

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

describe('CompletionSink', () => {
  it('waits out a database outage: the exchanges answered meanwhile are stored once it is back', async () => {
    const database = await testDatabase('sqlite');
    const real = createThreadStore(database, { retentionDays: 30, now: () => new Date('2026-01-02T00:00:00Z') });
    let failures = 3;
    const threads: ThreadStore = {
      ...real,
      async appendAll(entries) {
        if (failures-- > 0) throw new DatabaseUnavailableError();
        await real.appendAll(entries);
      },
    };
    const recorder = new AnalyticsRecorder({ store: createAnalyticsStore(database), logger, retentionDays: 30 });
    const sink = new CompletionSink({ threads, recorder, logger });
    sink.complete(record('t1', 'install'));
    sink.complete(record('t1', 'upgrade'));
    await sink.settled('acme', 't1');
    assert.equal(failures, -1, 'written on the fourth attempt');
    const stored = await real.load('acme', 't1');
    assert.deepEqual(stored?.exchanges.map((e) => e.question), ['install', 'upgrade']);
  });

  it('gives up on an error that is not an outage, and goes on with what comes next', async () => {
    const database = await testDatabase('sqlite');
    const real = createThreadStore(database, { retentionDays: 30, now: () => new Date('2026-01-02T00:00:00Z') });
    let fail = true;
    const threads: ThreadStore = {
      ...real,
      async appendAll(entries) {
        if (fail) {
          fail = false;
          throw new Error('constraint violated');
        }
        await real.appendAll(entries);
      },
    };
    const sink = new CompletionSink({ threads, recorder: new AnalyticsRecorder({ store: createAnalyticsStore(database), logger, retentionDays: 30 }), logger });
    sink.complete(record('t1', 'lost'));
    await sink.flush();
    sink.complete(record('t2', 'kept'));
    await sink.flush();
    assert.equal(await real.load('acme', 't1'), undefined);
    assert.deepEqual((await real.load('acme', 't2'))?.exchanges.map((e) => e.question), ['kept']);
  });
});
