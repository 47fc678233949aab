import type { Logger } from '../../core/logger.js';
import type { AnswerWriter, Citation } from './answer-writer.js';
import type { AnswerRun } from './answerer.js';
import { publicFailure } from './model-answerer.js';

export interface AnswerJob {
  writer: AnswerWriter;
  /** The answer's text, already linked and recorded by the answer service. */
  run: AnswerRun;
  citations: Citation[];
  signal: AbortSignal;
  logger: Logger;
  /** For the logs. */
  threadId: string;
  /** Ends the response (the stream's last byte), once what must come first has. */
  end(): void | Promise<void>;
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

/** Streams one answer to its end: text, then sources and finish, or an error part. */
export async function runAnswer(job: AnswerJob): Promise<void> {
  const { writer, signal, logger } = job;
  try {
    for await (const delta of job.run.deltas) {
      writer.text(delta);
      // The next delta is pulled from the model only once the client has taken this one.
      if (!writer.full()) continue;
      if (!(await clientKeepsUp(writer, signal, job.stallTimeoutMs))) {
        logger.info({ threadId: job.threadId, stallTimeoutMs: job.stallTimeoutMs }, 'assistant client stopped reading; stream ended');
        job.onStall();
        break;
      }
    }
  } catch (err) {
    if (!signal.aborted) {
      logger.warn({ err, threadId: job.threadId }, 'assistant answer failed mid-stream');
      writer.error(publicFailure(err));
    }
    return await job.end();
  }
  if (signal.aborted) return await job.end();
  writer.inOneWrite(() => {
    writer.endText();
    writer.sources(job.citations);
    writer.finish(job.run.usage());
  });
  await job.end();
}
