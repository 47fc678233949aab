import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAnalyticsStore } from '../analytics/index.js';
import { openDatabase } from '../db/index.js';
import type { QueryOperation } from '../db/instrumented-dialect.js';
import { createThreadStore } from '../threads/index.js';
import type { StoredCompletion } from './completion.js';
import { storeAnswers, storeExchanges, type WriterLog } from './store-completions.js';
import type { FromWriter, ToWriter, WriterSettings } from './writer-protocol.js';

/** Answer records held back at most this long, or until this many, to be written in one transaction. */
const ANSWERS_WAIT_MS = 1_000;
const ANSWERS_PER_WRITE = 500;

/**
 * The completion writer's thread: its own handle on the system of record (migrated by the platform
 * before this thread starts), the thread and analytics stores over it, and one round of writes at a
 * time. A round appends the thread exchanges of every batch that arrived meanwhile, in order, in one
 * transaction, and says so at once (readers of those threads wait for it). The answer records are
 * held back, as the analytics recorder holds its events, and written together once a second (or
 * when 500 are held, or a flush asks): a few statements for hundreds of answers. Nothing here
 * decides where the database is: the platform passes its configuration in `workerData`.
 */
function run(port: NonNullable<typeof parentPort>, settings: WriterSettings): void {
  // Each statement's kind and duration, sent with the next acknowledgement.
  let queries: Array<QueryOperation | number> = [];
  const send = (kind: 'settled' | 'stored', seq: number) => {
    port.postMessage({ kind, seq, queries } satisfies FromWriter);
    queries = [];
  };
  const database = openDatabase(settings.database, { poolSize: settings.poolSize, observe: (operation, seconds) => queries.push(operation, seconds) });
  const threads = createThreadStore(database, { retentionDays: settings.threadRetentionDays });
  const analytics = createAnalyticsStore(database);
  const log: WriterLog = {
    warn: (fields, message) => port.postMessage({ kind: 'log', level: 'warn', fields, message } satisfies FromWriter),
    error: (fields, message) => port.postMessage({ kind: 'log', level: 'error', fields, message } satisfies FromWriter),
  };
  const options = { retryForMs: settings.retryForMs, log };

  let queue: Array<Extract<ToWriter, { kind: 'batch' }>> = [];
  /** Answer records whose exchanges are settled, and the last batch among them. */
  let held: StoredCompletion[] = [];
  let heldUpTo = 0;
  let heldSince = 0;
  let flushing = false;
  let closing = false;
  /** A round is under way: messages meanwhile only queue, the round takes them before it ends. */
  let writing = false;
  let timer: NodeJS.Timeout | undefined;

  const answersDue = () => held.length > 0 && (flushing || closing || held.length >= ANSWERS_PER_WRITE || Date.now() - heldSince >= ANSWERS_WAIT_MS);

  const round = async (): Promise<void> => {
    clearTimeout(timer);
    while (queue.length > 0 || answersDue()) {
      if (queue.length > 0) {
        const batches = queue;
        queue = [];
        const completions = batches.length === 1 ? batches[0]!.completions : batches.flatMap((b) => b.completions);
        await storeExchanges(threads, completions, { ...options, replay: batches.some((b) => b.replay) });
        heldUpTo = batches.at(-1)!.seq;
        send('settled', heldUpTo);
        if (held.length === 0) heldSince = Date.now();
        for (const c of completions) held.push(c);
      }
      if (answersDue()) {
        const answers = held;
        held = [];
        await storeAnswers(analytics, answers, options);
        send('stored', heldUpTo);
      }
    }
    flushing = false;
  };
  /**
   * Starts a round unless one is under way; once it ends the thread closes if asked, or waits for
   * the held records' time. `writing` is cleared only after the round has ended: a round with
   * nothing due (a flush that crossed the last acknowledgement, a timer that fired a millisecond
   * early) ends without awaiting anything, and a flag it cleared itself would be set again by its
   * caller, leaving the thread deaf to every later batch. A round that throws ends the thread,
   * as any uncaught error does, and the main thread's side hands its batches to a new one.
   */
  const kick = (): void => {
    if (writing) return;
    writing = true;
    void round().then(async () => {
      writing = false;
      if (closing) await shut();
      else if (held.length > 0) timer = setTimeout(kick, Math.max(0, heldSince + ANSWERS_WAIT_MS - Date.now()));
    });
  };
  const shut = async () => {
    await database.close();
    port.close();
  };

  port.on('message', (message: ToWriter) => {
    switch (message.kind) {
      case 'batch':
        queue.push(message);
        break;
      case 'flush':
        flushing = true;
        break;
      case 'close':
        closing = true;
        break;
      default:
        // A message this writer does not know is a bug of its sender: the thread ends, as on any
        // uncaught error, and the main thread's side hands what it had not acknowledged to a new one.
        // Only its kind is named: a message carries readers' questions and answers.
        throw new Error(`the completion writer thread got a message it does not know (kind ${JSON.stringify((message as { kind?: unknown }).kind)})`);
    }
    kick();
  });
}

/** This module's file, the thread's entry: imported by the main thread's side, so every build that has it emits this file too. */
export const writerEntry = __filename;

if (!isMainThread && parentPort) run(parentPort, workerData as WriterSettings);
