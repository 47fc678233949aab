import type { Config } from '../../core/config.js';
import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { keepAliveAgents, ModelHttpError, streamChatCompletion } from './chat-completions-client.js';
import { eventData, pieceOf } from './completion-stream.js';

type ModelConfig = NonNullable<Config['model']>;

/** The model failed; the message is safe to show to the reader. */
export class ModelFailedError extends Error {
  override name = 'ModelFailedError';
}

function publicReason(err: unknown): string {
  if (err instanceof ModelHttpError) {
    if (err.status === 429) return 'The language model is busy (rate limited); please try again shortly.';
    return `The language model returned an error (HTTP ${err.status}).`;
  }
  return 'The connection to the language model was interrupted.';
}

/**
 * Answers through any OpenAI-compatible Chat Completions endpoint, streamed
 * token by token. No client retries: a retry after text has streamed would
 * repeat it, and the reader can simply ask again.
 */
export function modelAnswerer(model: ModelConfig): Answerer {
  const agents = keepAliveAgents();
  return {
    mode: 'model',
    answer({ prompt, signal }: AnswerInput): AnswerRun {
      const usage: Usage = { promptTokens: 0, completionTokens: 0 };
      async function* deltas(): AsyncGenerator<string> {
        try {
          const response = await streamChatCompletion(model, prompt.messages, signal, agents);
          let done = false;
          try {
            // Stopping at `[DONE]` must not destroy the response: its connection goes back to the keep-alive pool.
            for await (const batch of eventData(response.iterator({ destroyOnReturn: false }))) {
              let text = '';
              for (const data of batch.data) {
                const piece = pieceOf(JSON.parse(data));
                if (piece.error) throw new ModelFailedError('The language model reported an error mid-answer.');
                if (piece.text) text += piece.text;
                if (piece.usage) Object.assign(usage, piece.usage);
              }
              done = batch.done;
              if (text) yield text;
            }
          } finally {
            if (done || response.complete) response.resume();
            else response.destroy();
          }
          // A stream cut short is a failure, not a short answer.
          if (!done && !response.complete) throw new ModelFailedError(publicReason(undefined));
        } catch (err) {
          if (signal.aborted || err instanceof ModelFailedError) throw err;
          throw new ModelFailedError(publicReason(err), { cause: err });
        }
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
