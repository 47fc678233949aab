import type { Config } from '../../core/config.js';
import { ModelError, ModelStreamError, RateLimitedModelError, type ModelPort } from '../../core/model/index.js';
import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';

type ModelConfig = NonNullable<Config['model']>;

/** The model failed; the message is safe to show to the reader. */
export class ModelFailedError extends Error {
  override name = 'ModelFailedError';
}

/** What the reader is told when an answer fails: the model's kind of failure, else a plain sentence. */
export function publicFailure(err: unknown): string {
  return err instanceof ModelFailedError ? err.message : 'The answer could not be completed.';
}

/** What the reader is told: the kind of failure, never the provider's own words. */
function publicReason(err: unknown): string {
  if (err instanceof RateLimitedModelError) return 'The language model is busy (rate limited); please try again shortly.';
  if (err instanceof ModelStreamError) return 'The language model reported an error mid-answer.';
  if (err instanceof ModelError && err.status !== undefined) return `The language model returned an error (HTTP ${err.status}).`;
  return 'The connection to the language model was interrupted.';
}

/**
 * Answers through the model port, streamed token by token. No retries, not
 * even before the first token: a retry after text has streamed would repeat
 * it, a rate-limited provider asks for seconds a waiting reader should not
 * spend in silence, and the reader's client can ask again (AI SDK `regenerate`).
 */
export function modelAnswerer(model: ModelConfig, port: ModelPort): Answerer {
  return {
    mode: 'model',
    answer({ prompt, signal }: AnswerInput): AnswerRun {
      const usage: Usage = { promptTokens: 0, completionTokens: 0 };
      async function* deltas(): AsyncGenerator<string> {
        try {
          for await (const batch of port.streamChat({ model: model.name, messages: prompt.messages, signal })) {
            if (batch.usage) Object.assign(usage, batch.usage);
            if (batch.text) yield batch.text;
          }
        } catch (err) {
          if (signal.aborted) throw err;
          throw new ModelFailedError(publicReason(err), { cause: err });
        }
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
