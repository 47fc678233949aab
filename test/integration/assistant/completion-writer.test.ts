import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { createAnalyticsStore } from '../../../core/analytics/index.js';
import { CompletionWriter, type StoredCompletion } from '../../../core/completions/index.js';
import { openDatabase, type Database, type DatabaseTarget } from '../../../core/db/index.js';
import { createLogger } from '../../../core/logger.js';
import { createThreadStore } from '../../../core/threads/index.js';
import { DIALECTS, databaseEnv, freshTarget } from '../../support/databases.js';
import { sharedPostgres } from '../../support/postgres.js';
import { testConfig, testPlatform } from '../../support/services.js';
import { REPO_ROOT } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';

const logger = createLogger('silent', 'test');
const execFileAsync = promisify(execFile);

let messages = 0;
const completion = (threadId: string, question: string): StoredCompletion => ({
  id: `msg_${++messages}`,
  orgId: 'acme',
  domainId: 'docs',
  threadId,
  question,
  surface: 'assistant',
  caller: 'browser',
  fp: 'fp',
  currentPath: null,
  at: Date.now(),
  answer: `About ${question}.`,
  sources: [{ title: 'Install', url: 'https://docs.example.com/install', path: '/install' }],
  mode: 'extractive',
  outcome: 'complete',
  error: undefined,
  startedAt: new Date().toISOString(),
  finishedAt: new Date().toISOString(),
  unansweredReason: null,
  category: 'install',
  thread: { orgId: 'acme', threadId, domainId: 'docs' },
});

/** A migrated database of the dialect (the platform migrates it, as the API's does) and a reader of its own. */
async function migrated(dialect: (typeof DIALECTS)[number]): Promise<{ target: DatabaseTarget; database: Database }> {
  const target = await freshTarget(dialect);
  const { database } = await testPlatform(await testConfig(databaseEnv(target)));
  return { target, database };
}

function writerOn(target: DatabaseTarget, observed: string[] = [], retryForMs?: number): CompletionWriter {
  const writer = new CompletionWriter({
    database: target,
    poolSize: 2,
    threadRetentionDays: 30,
    logger,
    observe: (operation) => void observed.push(operation),
    ...(retryForMs ? { retryForMs } : {}),
  });
  onSuiteEnd(() => writer.close());
  return writer;
}

const questions = async (database: Database, threadId: string) =>
  (await createThreadStore(database, { retentionDays: 30 }).load('acme', threadId))?.exchanges.map((e) => e.question) ?? [];

for (const dialect of DIALECTS) {
  describe(`the completion writer thread (${dialect})`, function () {
    this.timeout(60_000);

    it('stores each thread\'s exchanges in order and the answer records; settled and flush wait for the commit', async () => {
      const { target, database } = await migrated(dialect);
      const observed: string[] = [];
      const writer = writerOn(target, observed);
      writer.take(completion('t1', 'install'));
      writer.take(completion('t2', 'webhooks'));
      writer.take(completion('t1', 'upgrade'));
      await writer.settled('acme', 't1');
      assert.deepEqual(await questions(database, 't1'), ['install', 'upgrade']);
      writer.take(completion('t2', 'signing'));
      await writer.flush();
      assert.deepEqual(await questions(database, 't2'), ['webhooks', 'signing']);
      const answers = await createAnalyticsStore(database).threadAnswers('docs', 't1');
      assert.deepEqual(answers.map((a) => [a.question, a.category, a.resolution]), [['install', 'install', 'answered'], ['upgrade', 'install', 'answered']]);
      assert.deepEqual(await createAnalyticsStore(database).answerDays('docs', { from: Date.now() - 86_400_000, to: Date.now() + 86_400_000 }), [
        { day: Math.floor(Date.now() / 86_400_000) * 86_400_000, total: 4, unanswered: 0 },
      ]);
      // The thread's statements reach the process's database metric through its acknowledgements.
      assert.ok(observed.includes('insert') && observed.includes('select'), `observed ${observed.join(', ')}`);
    });

    it('writes the answer records it holds back without being asked', async () => {
      const { target, database } = await migrated(dialect);
      const writer = writerOn(target);
      writer.take({ ...completion('t1', 'install'), thread: undefined, threadId: null });
      const analytics = createAnalyticsStore(database);
      const range = { from: 0, to: Date.now() + 60_000, limit: 10 };
      while ((await analytics.listAnswers('docs', range)).items.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual((await analytics.listAnswers('docs', range)).items.map((a) => [a.question, a.threadId]), [['install', null]]);
    });

    it('a round with nothing to write (a flush after the last records were stored) leaves the thread taking the next batches', async () => {
      const { target, database } = await migrated(dialect);
      const writer = writerOn(target);
      writer.take(completion('t1', 'install'));
      await writer.flush();
      // What the main thread sends when its flush crosses the thread's last acknowledgement, and
      // what a held-answers timer that fires a millisecond early amounts to: a round with nothing due.
      writer.thread!.postMessage({ kind: 'flush' });
      writer.take(completion('t1', 'upgrade'));
      let waited: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        waited = setTimeout(() => reject(new Error('the next batch was never settled: the writer thread stopped taking batches')), 10_000);
      });
      try {
        await Promise.race([writer.settled('acme', 't1'), stuck]);
      } finally {
        clearTimeout(waited);
      }
      assert.deepEqual(await questions(database, 't1'), ['install', 'upgrade']);
    });

    it('a writer thread that stops mid-batch, the database busy, loses nothing and stores nothing twice', async () => {
      const { target, database } = await migrated(dialect);
      const writer = writerOn(target);
      writer.take(completion('t1', 'before'));
      await writer.flush();
      // Another connection holds the tables the writer appends to: its next batch waits on them.
      const blocker = openDatabase(target);
      onSuiteEnd(() => blocker.close());
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding = blocker.transaction(async (trx) => {
        if (dialect === 'postgres') await sql`lock table threads in exclusive mode`.execute(trx);
        await released;
      });
      writer.take(completion('t1', 'during'));
      writer.take(completion('t3', 'elsewhere'));
      const settled = writer.settled('acme', 't1');
      // The batch reaches the thread, which then fails as a bug would make it fail (an uncaught
      // error, thrown once it is back in JavaScript: \`terminate()\` inside SQLite's own wait for the
      // lock aborts the process, which is why closing the writer never terminates its thread).
      await new Promise((resolve) => setTimeout(resolve, 300));
      const first = writer.thread;
      assert.ok(first, 'a writer thread runs');
      const crashed = new Promise<number>((resolve) => first.once('exit', resolve));
      first.postMessage({ kind: 'not a message the writer knows' });
      assert.equal(await crashed, 1);
      release();
      await holding;
      await settled;
      assert.notEqual(writer.thread, first, 'a new writer thread took over');
      assert.deepEqual(await questions(database, 't1'), ['before', 'during']);
      assert.deepEqual(await questions(database, 't3'), ['elsewhere']);
      // The answer records follow the exchanges (held back a moment, written together): once each.
      await writer.flush();
      assert.equal((await createAnalyticsStore(database).threadAnswers('docs', 't1')).length, 2);
    });

    it('closing drains what was taken, then the thread ends', async () => {
      const { target, database } = await migrated(dialect);
      const writer = writerOn(target);
      for (let i = 0; i < 50; i++) writer.take(completion(`t${i % 5}`, `q${i}`));
      const thread = await new Promise<CompletionWriter['thread']>((resolve) => setImmediate(() => resolve(writer.thread)));
      const exited = new Promise<number>((resolve) => thread!.once('exit', resolve));
      await writer.close();
      assert.equal(await exited, 0);
      assert.deepEqual(await questions(database, 't0'), ['q0', 'q5', 'q10', 'q15', 'q20', 'q25', 'q30', 'q35', 'q40', 'q45']);
    });

    it('closing an idle writer in a process with nothing else to do finishes before the process ends (a CLI, a script)', async () => {
      const { target, database } = await migrated(dialect);
      // A process whose only work is to write one completion, wait for it, and close the writer.
      const script = [
        `const { CompletionWriter } = require(${JSON.stringify(path.join(REPO_ROOT, 'core/completions/index.ts'))});`,
        `const { createLogger } = require(${JSON.stringify(path.join(REPO_ROOT, 'core/logger.ts'))});`,
        'const [target, completion] = JSON.parse(process.argv[1]);',
        "const writer = new CompletionWriter({ database: target, poolSize: 1, threadRetentionDays: 30, logger: createLogger('silent', 'test'), observe: () => undefined });",
        'writer.take(completion);',
        "void writer.flush().then(() => writer.close()).then(() => console.log('closed'));",
      ].join('\n');
      const { stdout } = await execFileAsync(process.execPath, ['--require', 'tsx/cjs', '-e', script, JSON.stringify([target, completion('t-script', 'from a script')])], { cwd: REPO_ROOT });
      assert.equal(stdout.trim(), 'closed', 'close() resolved before the process ended');
      assert.deepEqual(await questions(database, 't-script'), ['from a script']);
    });

    it('two writers on one database (two API processes) append to the same thread without colliding', async () => {
      const { target, database } = await migrated(dialect);
      const [a, b] = [writerOn(target), writerOn(target)];
      for (let round = 0; round < 10; round++) {
        a.take(completion('shared', `a${round}`));
        b.take(completion('shared', `b${round}`));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all([a.flush(), b.flush()]);
      const stored = await questions(database, 'shared');
      assert.equal(stored.length, 20);
      // Each writer's exchanges keep their order.
      assert.deepEqual(stored.filter((q) => q.startsWith('a')), Array.from({ length: 10 }, (_, i) => `a${i}`));
      assert.deepEqual(stored.filter((q) => q.startsWith('b')), Array.from({ length: 10 }, (_, i) => `b${i}`));
    });
  });
}

describe('the completion writer thread (postgres stopped mid-batch)', function () {
  this.timeout(60_000);

  it('waits for the server to come back and stores every exchange taken meanwhile', async () => {
    const { target, database } = await migrated('postgres');
    const writer = writerOn(target);
    writer.take(completion('t1', 'before'));
    await writer.flush();
    const server = await sharedPostgres();
    await server.stop();
    try {
      writer.take(completion('t1', 'during'));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await server.start();
    }
    await writer.settled('acme', 't1');
    assert.deepEqual(await questions(database, 't1'), ['before', 'during']);
  });

  it('closing while the database is down gives up after its drain bound, saying how many answers were lost, instead of waiting it out', async () => {
    const { target } = await migrated('postgres');
    const lines: string[] = [];
    const capture = createLogger('error', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()) }));
    const writer = new CompletionWriter({ database: target, poolSize: 2, threadRetentionDays: 30, logger: capture, observe: () => undefined });
    writer.take(completion('t2', 'before'));
    await writer.flush();
    const server = await sharedPostgres();
    await server.stop();
    try {
      writer.take(completion('t2', 'lost'));
      writer.take(completion('t3', 'lost too'));
      // Without the bound this waits the writer's ten minutes for the database (past the suite's timeout).
      await writer.close(500);
    } finally {
      await server.start();
    }
    const said = lines.map((l) => JSON.parse(l) as { msg: string; completions: number });
    assert.deepEqual(said.map((l) => [l.msg, l.completions]), [['answers not stored: the database did not take them before shutdown', 2]]);
    assert.equal(writer.thread, undefined, 'the thread is stopped, and no other started');
  });
});
