import assert from 'node:assert/strict';
import { AnalyticsRecorder, createAnalyticsStore, type AnalyticsEvent, type AnalyticsStore } from '../../../core/analytics/index.js';
import { DatabaseUnavailableError } from '../../../core/db/errors.js';
import { createLogger } from '../../../core/logger.js';
import { testDatabase } from '../../support/databases.js';
import { answer } from './answer-fixture.js';

const DAY = 86_400_000;
const logger = createLogger('silent', 'test');

/** The real store on a SQLite database in a temporary folder. */
async function sqliteStore(): Promise<AnalyticsStore> {
  return createAnalyticsStore(await testDatabase('sqlite'));
}

/** The real store, with each batch first shown to `seen` (which may throw, as a failing disk would). */
async function watched(seen: (events: AnalyticsEvent[]) => void): Promise<AnalyticsStore> {
  const store = await sqliteStore();
  return {
    ...store,
    async write(events) {
      seen(events);
      await store.write(events);
    },
  };
}

describe('AnalyticsRecorder', () => {
  it('writes what it queued in batches on each round', async () => {
    const batches: number[] = [];
    const store = await watched((events) => batches.push(events.length));
    const recorder = new AnalyticsRecorder({ store, logger, retentionDays: 30, batchSize: 2, now: () => Date.UTC(2026, 0, 1) });
    for (let i = 0; i < 5; i++) recorder.record({ kind: 'answer', record: answer(`a${i}`, Date.UTC(2026, 0, 1)) });
    assert.deepEqual(recorder.stats, { queued: 5, dropped: 0, written: 0 });
    await recorder.tick();
    assert.deepEqual(batches, [2, 2, 1]);
    assert.deepEqual(recorder.stats, { queued: 0, dropped: 0, written: 5 });
    assert.equal((await store.listAnswers('docs', { from: 0, to: Date.UTC(2027, 0, 1), limit: 10 })).items.length, 5);
  });

  it('drops and counts what does not fit a full queue, and never throws to the caller', async () => {
    const recorder = new AnalyticsRecorder({ store: await sqliteStore(), logger, retentionDays: 30, capacity: 3 });
    for (let i = 0; i < 5; i++) recorder.record({ kind: 'answer', record: answer(`a${i}`, 1) });
    assert.deepEqual(recorder.stats, { queued: 3, dropped: 2, written: 0 });
    await recorder.tick();
    assert.deepEqual(recorder.stats, { queued: 0, dropped: 2, written: 3 });
  });

  it('drops only the event the store refuses: the rest of its batch is written, one by one', async () => {
    const batches: string[][] = [];
    const store = await watched((events) => {
      batches.push(events.map((e) => (e.kind === 'answer' ? e.record.id : e.kind)));
      if (events.some((e) => e.kind === 'answer' && e.record.id === 'bad')) throw new Error('value too long for the index');
    });
    const recorder = new AnalyticsRecorder({ store, logger, retentionDays: 30, batchSize: 3, now: () => Date.UTC(2026, 0, 1) });
    for (const id of ['a', 'bad', 'b', 'c']) recorder.record({ kind: 'answer', record: answer(id, Date.UTC(2026, 0, 1)) });
    await recorder.tick();
    assert.deepEqual(recorder.stats, { queued: 0, dropped: 1, written: 3 });
    // The refused batch again one event at a time; the next batch as usual.
    assert.deepEqual(batches, [['a', 'bad', 'b'], ['a'], ['bad'], ['b'], ['c']]);
    const stored = await store.listAnswers('docs', { from: 0, to: Date.UTC(2027, 0, 1), limit: 10 });
    assert.deepEqual(stored.items.map((a) => a.id).sort(), ['a', 'b', 'c']);
  });

  it('keeps a batch the database could not take for now (an outage) and writes it on a later round', async () => {
    let down = true;
    const store = await watched(() => {
      if (down) throw new DatabaseUnavailableError();
    });
    const recorder = new AnalyticsRecorder({ store, logger, retentionDays: 30, batchSize: 1, now: () => Date.UTC(2026, 0, 1) });
    recorder.record({ kind: 'answer', record: answer('first', Date.UTC(2026, 0, 1)) });
    recorder.record({ kind: 'answer', record: answer('second', Date.UTC(2026, 0, 1)) });
    await recorder.tick();
    assert.deepEqual(recorder.stats, { queued: 2, dropped: 0, written: 0 });
    down = false;
    await recorder.tick();
    assert.deepEqual(recorder.stats, { queued: 0, dropped: 0, written: 2 });
    assert.deepEqual((await store.listAnswers('docs', { from: 0, to: Date.UTC(2027, 0, 1), limit: 10 })).items.length, 2);
  });

  it('purges what is older than the retention once per purge interval, on its own clock', async () => {
    const store = await sqliteStore();
    let now = Date.UTC(2026, 0, 1);
    const recorder = new AnalyticsRecorder({ store, logger, retentionDays: 30, purgeIntervalMs: 3_600_000, now: () => now });
    recorder.record({ kind: 'answer', record: answer('first', now) });
    await recorder.tick();
    now += 20 * DAY;
    recorder.record({ kind: 'answer', record: answer('second', now) });
    await recorder.tick();
    const ids = async () => (await store.listAnswers('docs', { from: 0, to: now + DAY, limit: 10 })).items.map((r) => r.id);
    assert.deepEqual(await ids(), ['second', 'first']);
    now += 11 * DAY; // 'first' is now 31 days old, 'second' 11
    await recorder.tick();
    assert.deepEqual(await ids(), ['second']);
  });

  it('stop writes the events that came while a round was purging, not only what that round took', async () => {
    const store = await sqliteStore();
    let purging!: () => void;
    const purgeStarted = new Promise<void>((resolve) => (purging = resolve));
    let finishPurge!: () => void;
    const purgeHeld = new Promise<void>((resolve) => (finishPurge = resolve));
    const slowPurge: AnalyticsStore = {
      ...store,
      async purge(before) {
        purging();
        await purgeHeld;
        return store.purge(before);
      },
    };
    const recorder = new AnalyticsRecorder({ store: slowPurge, logger, retentionDays: 30, now: () => Date.UTC(2026, 0, 1) });
    // The first round purges (none has yet): an event arrives while it does, then the process stops.
    void recorder.tick();
    await purgeStarted;
    recorder.record({ kind: 'answer', record: answer('late', Date.UTC(2026, 0, 1)) });
    const stopped = recorder.stop();
    finishPurge();
    await stopped;
    assert.deepEqual(recorder.stats, { queued: 0, dropped: 0, written: 1 });
    assert.deepEqual((await store.listAnswers('docs', { from: 0, to: Date.UTC(2027, 0, 1), limit: 10 })).items.map((a) => a.id), ['late']);
  });

  it('stop gives up, saying how many events it lost, when the database cannot take them', async () => {
    const lines: string[] = [];
    const store = await watched(() => {
      throw new DatabaseUnavailableError();
    });
    const recorder = new AnalyticsRecorder({ store, logger: createLogger('error', 'test', { write: (l: string) => void lines.push(l) }), retentionDays: 30 });
    recorder.record({ kind: 'answer', record: answer('a', 1) });
    await recorder.stop();
    assert.deepEqual(recorder.stats, { queued: 1, dropped: 0, written: 0 });
    assert.ok(lines.some((l) => l.includes('analytics events not written before stopping') && l.includes('"lost":1')), lines.join(''));
  });
});
