import type { Logger } from '../../core/logger.js';
import type { ThreadExchange, ThreadRef, ThreadStore } from '../../core/threads/index.js';
import type { AnswerWriter, Citation } from './answer-writer.js';
import type { AnswerInput, Answerer } from './answerer.js';
import { ModelFailedError } from './model-answerer.js';
import { blockSeparator } from './suggestions.js';

export interface AnswerJob {
  writer: AnswerWriter;
  answerer: Answerer;
  input: AnswerInput;
  citations: Citation[];
  /** The `suggestions` block that closes a completed answer ('' for none). */
  suggestions: string;
  /** Where the exchange is recorded; undefined when the thread store is out of reach. */
  thread: ThreadRef | undefined;
  exchange: Pick<ThreadExchange, 'messageId' | 'question' | 'fp'>;
  threads: ThreadStore;
  logger: Logger;
  /** Ends the response (the stream's last byte). */
  end(): void;
  /** How long the client may read nothing while the stream is full before it is given up. */
  stallTimeoutMs: number;
  /** The client read nothing for `stallTimeoutMs`: cut the connection and abort the model request. */
  onStall(): void;
}

/**
 * Waits until the writer has room, the request is aborted, or the stall
 * timeout passes; false in the last case (the client stopped reading).
 */
async function clientKeepsUp(writer: AnswerWriter, signal: AbortSignal, stallTimeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      writer.ready().then(() => true),
      new Promise<boolean>((resolve) => {
        onAbort = () => resolve(true);
        signal.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => resolve(false), stallTimeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Streams one answer to its end and records the exchange. The exchange is
 * stored before the final chunk, so a follow-up sent on `finish` finds it; a
 * failed or cut answer is stored as far as it got.
 */
export async function runAnswer(job: AnswerJob): Promise<void> {
  const { writer, input, logger } = job;
  const startedAt = new Date().toISOString();
  let answer = '';
  const record = async (outcome: ThreadExchange['outcome'], error?: string) => {
    const exchange: ThreadExchange = {
      ...job.exchange,
      answer,
      sources: outcome === 'complete' ? job.citations.map(({ url, title, path }) => ({ url, title, path })) : [],
      mode: job.answerer.mode,
      outcome,
      ...(error ? { error } : {}),
      startedAt,
      finishedAt: new Date().toISOString(),
    };
    if (!job.thread) return;
    try {
      await job.threads.append(job.thread, exchange);
    } catch (err) {
      logger.error({ err, threadId: job.thread.threadId }, 'assistant thread not stored');
    }
  };

  const run = job.answerer.answer(input);
  try {
    for await (const delta of run.deltas) {
      if (input.signal.aborted) break;
      answer += delta;
      writer.text(delta);
      // The next delta is pulled from the model only once the client has taken this one.
      if (!(await clientKeepsUp(writer, input.signal, job.stallTimeoutMs))) {
        logger.info({ threadId: job.thread?.threadId, stallTimeoutMs: job.stallTimeoutMs }, 'assistant client stopped reading; stream ended');
        job.onStall();
        break;
      }
    }
  } catch (err) {
    if (input.signal.aborted) {
      await record('aborted');
      return job.end();
    }
    const message = err instanceof ModelFailedError ? err.message : 'The answer could not be completed.';
    logger.warn({ err, threadId: job.thread?.threadId }, 'assistant answer failed mid-stream');
    await record('error', message);
    writer.error(message);
    return job.end();
  }
  if (input.signal.aborted) {
    await record('aborted');
    return job.end();
  }
  if (job.suggestions) {
    const closing = blockSeparator(answer) + job.suggestions;
    answer += closing;
    writer.text(closing);
  }
  writer.endText();
  writer.sources(job.citations);
  await record('complete');
  writer.finish(run.usage());
  job.end();
}
