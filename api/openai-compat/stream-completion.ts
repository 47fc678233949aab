import type { Writable } from 'node:stream';
import type { Logger } from '../../core/logger.js';
import { citationLinker, numberedCitations, type DocsAnswer } from '../ai-tools/index.js';
import { ModelFailedError } from '../assistant/index.js';
import { chunk, openAiError, usageChunk, type CompletionIds } from './wire-format.js';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

export interface StreamJob {
  out: Writable;
  ids: CompletionIds;
  answer: DocsAnswer;
  /** `stream_options.include_usage`. */
  withUsage: boolean;
  signal: AbortSignal;
  logger: Logger;
}

/**
 * Writes one answer as Chat Completions server-sent events: a first chunk
 * with the role and the citations, the text (markers linked as it streams),
 * a `stop` chunk, the usage chunk when asked for, then `[DONE]`. A failure
 * after the first byte is an `error` event, which OpenAI clients raise.
 */
export async function streamCompletion(job: StreamJob): Promise<void> {
  const { out, ids, answer, withUsage, signal } = job;
  const send = (value: unknown) => out.write(`data: ${JSON.stringify(value)}\n\n`);
  const linker = citationLinker(answer.citations);
  send(chunk(ids, { role: 'assistant', content: '', citations: numberedCitations(answer.citations) }, null, withUsage));
  try {
    for await (const delta of answer.run.deltas) {
      if (signal.aborted) break;
      const text = linker.push(delta);
      if (text) send(chunk(ids, { content: text }, null, withUsage));
    }
  } catch (err) {
    if (!signal.aborted) {
      const message = err instanceof ModelFailedError ? err.message : 'The answer could not be completed.';
      job.logger.warn({ err, id: ids.id }, 'chat completion failed mid-stream');
      send(openAiError(message, 502, 'model_failed'));
    }
    out.end();
    return;
  }
  if (signal.aborted) {
    out.end();
    return;
  }
  const rest = linker.flush();
  if (rest) send(chunk(ids, { content: rest }, null, withUsage));
  send(chunk(ids, {}, 'stop', withUsage));
  if (withUsage) send(usageChunk(ids, answer.run.usage()));
  out.write('data: [DONE]\n\n');
  out.end();
}
