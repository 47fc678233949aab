import OpenAI from 'openai';
import type { Config } from '../../core/config.js';
import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { eventData, pieceOf } from './completion-stream.js';

type ModelConfig = NonNullable<Config['model']>;

/** The model failed; the message is safe to show to the reader. */
export class ModelFailedError extends Error {
  override name = 'ModelFailedError';
}

function publicReason(err: unknown): string {
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
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
  const client = new OpenAI({
    baseURL: model.baseUrl,
    // Local servers (Ollama, vLLM) take no key, but the client insists on one.
    apiKey: model.apiKey ?? 'no-key',
    maxRetries: 0,
  });
  return {
    mode: 'model',
    answer({ prompt, signal }: AnswerInput): AnswerRun {
      const usage: Usage = { promptTokens: 0, completionTokens: 0 };
      async function* deltas(): AsyncGenerator<string> {
        try {
          const response = await client.chat.completions
            .create({ model: model.name, messages: prompt.messages, stream: true, stream_options: { include_usage: true } }, { signal })
            .asResponse();
          if (!response.body) throw new ModelFailedError('The language model sent an empty response.');
          for await (const batch of eventData(response.body)) {
            let text = '';
            for (const data of batch) {
              const piece = pieceOf(JSON.parse(data));
              if (piece.error) throw new ModelFailedError('The language model reported an error mid-answer.');
              if (piece.text) text += piece.text;
              if (piece.usage) Object.assign(usage, piece.usage);
            }
            if (text) yield text;
          }
        } catch (err) {
          if (signal.aborted || err instanceof ModelFailedError) throw err;
          throw new ModelFailedError(publicReason(err), { cause: err });
        }
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
