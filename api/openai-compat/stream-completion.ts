import type { Writable } from 'node:stream';
import type { Logger } from '../../core/logger.js';
import { AnswerCutShortError, publicFailure, type AnswerRun, type NumberedCitation } from '../assistant/index.js';
import { chunk, openAiError, usageChunk, type CompletionIds, type FinishReason } from './wire-format.js';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

export interface StreamJob {
  out: Writable;
  ids: CompletionIds;
  /** The answer service's run: text already linked, recorded when it ends. */
  run: AnswerRun;
  citations: NumberedCitation[];
  /** `stream_options.include_usage`. */
  withUsage: boolean;
  signal: AbortSignal;
  logger: Logger;
}

/**
 * Writes one answer as Chat Completions server-sent events: a first chunk
 * with the role and the citations, the text (markers linked as it streams),
 * a `stop` chunk (`length` or `content_filter` when the model cut its answer
 * short), the usage chunk when asked for, then `[DONE]`. A failure after the
 * first byte is an `error` event, which OpenAI clients raise.
 */
export async function streamCompletion(job: StreamJob): Promise<void> {
  const { out, ids, run, withUsage, signal } = job;
  const send = (value: unknown) => out.write(`data: ${JSON.stringify(value)}\n\n`);
  send(chunk(ids, { role: 'assistant', content: '', citations: job.citations }, null, withUsage));
  let finishReason: FinishReason = 'stop';
  try {
    for await (const delta of run.deltas) send(chunk(ids, { content: delta }, null, withUsage));
  } catch (err) {
    if (err instanceof AnswerCutShortError) finishReason = err.finishReason;
    else if (!signal.aborted) {
      job.logger.warn({ err, id: ids.id }, 'chat completion failed mid-stream');
      send(openAiError(publicFailure(err).message, 502, 'model_failed'));
      out.end();
      return;
    } else {
      out.end();
      return;
    }
  }
  if (signal.aborted) {
    out.end();
    return;
  }
  send(chunk(ids, {}, finishReason, withUsage));
  if (withUsage) send(usageChunk(ids, run.usage()));
  out.write('data: [DONE]\n\n');
  out.end();
}
