import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAnalyticsStore } from '../analytics/index.js';
import { openDatabase } from '../db/index.js';
import type { QueryOperation } from '../db/instrumented-dialect.js';
import { createThreadStore } from '../threads/index.js';
import { storeCompletions, type WriterLog } from './store-completions.js';
import type { FromWriter, ToWriter, WriterSettings } from './writer-protocol.js';

/**
 * The completion writer's thread: its own handle on the system of record (migrated by the platform
 * before this thread starts), the thread and analytics stores over it, and one round of writes at a
 * time, each storing every batch that arrived meanwhile, in order. Nothing here decides where the
 * database is: the platform passes its configuration in `workerData`.
 */
function run(port: NonNullable<typeof parentPort>, settings: WriterSettings): void {
  const send = (message: FromWriter) => port.postMessage(message);
  // Each statement's kind and duration, sent with the acknowledgement of its round.
  let queries: Array<QueryOperation | number> = [];
  const database = openDatabase(settings.database, { poolSize: settings.poolSize, observe: (operation, seconds) => queries.push(operation, seconds) });
  const stores = { threads: createThreadStore(database, { retentionDays: settings.threadRetentionDays }), analytics: createAnalyticsStore(database) };
  const log: WriterLog = {
    warn: (fields, message) => send({ kind: 'log', level: 'warn', fields, message }),
    error: (fields, message) => send({ kind: 'log', level: 'error', fields, message }),
  };

  let queue: Array<Extract<ToWriter, { kind: 'batch' }>> = [];
  let writing: Promise<void> | undefined;
  let closing = false;

  const round = async (): Promise<void> => {
    while (queue.length > 0) {
      const batches = queue;
      queue = [];
      const completions = batches.length === 1 ? batches[0]!.completions : batches.flatMap((b) => b.completions);
      await storeCompletions(stores, completions, { retryForMs: settings.retryForMs, log, replay: batches.some((b) => b.replay) });
      send({ kind: 'stored', seq: batches.at(-1)!.seq, queries });
      queries = [];
    }
    writing = undefined;
    if (closing) await shut();
  };
  const shut = async () => {
    await database.close();
    port.close();
  };

  port.on('message', (message: ToWriter) => {
    switch (message.kind) {
      case 'batch':
        queue.push(message);
        writing ??= round();
        return;
      case 'close':
        closing = true;
        if (!writing) void shut();
        return;
      default:
        // A message this writer does not know is a bug of its sender: the thread ends, as on any
        // uncaught error, and the main thread's side hands what it had not acknowledged to a new one.
        throw new Error(`the completion writer thread got a message it does not know: ${JSON.stringify(message)}`);
    }
  });
}

/** This module's file, the thread's entry: imported by the main thread's side, so every build that has it emits this file too. */
export const writerEntry = __filename;

if (!isMainThread && parentPort) run(parentPort, workerData as WriterSettings);
