import type { Config } from '../../core/config.js';
import {
  ModelError,
  ModelStreamError,
  RateLimitedModelError,
  type ChatMessage,
  type ModelPort,
  type StreamedToolCall,
} from '../../core/model/index.js';
import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { SEARCH_TOOL, searchToolDefinition } from './search-tool.js';

type ModelConfig = NonNullable<Config['model']>;

/**
 * Why an answer ended in an error part, as a stable code a client can word in its reader's language
 * (the widget does): the model's kind of failure, or `answer_failed` for any other.
 */
export type AnswerFailureCode = 'model_rate_limited' | 'model_failed' | 'output_limit' | 'content_filter' | 'answer_failed';

/** An answer's failure as the stream says it: its code, and an English sentence for the reader. */
export interface AnswerFailure {
  code: AnswerFailureCode;
  message: string;
}

/** The model failed; the message is safe to show to the reader, and the code says which way. */
export class ModelFailedError extends Error {
  override name = 'ModelFailedError';
  constructor(
    readonly code: AnswerFailureCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The model stopped before its answer was whole: cut at its output limit (`length`) or stopped by
 * its provider's content filter. The text streamed so far stands; the reader is told it is cut short.
 */
export class AnswerCutShortError extends ModelFailedError {
  override name = 'AnswerCutShortError';
  constructor(readonly finishReason: 'length' | 'content_filter') {
    super(
      finishReason === 'length' ? 'output_limit' : 'content_filter',
      finishReason === 'length'
        ? 'The answer was cut off: the language model reached its output limit.'
        : "The language model stopped answering: its provider's content filter withheld the rest.",
    );
  }
}

/** What the reader is told when an answer fails: the model's kind of failure, else a plain sentence. */
export function publicFailure(err: unknown): AnswerFailure {
  return err instanceof ModelFailedError ? { code: err.code, message: err.message } : { code: 'answer_failed', message: 'The answer could not be completed.' };
}

/** What the reader is told: the kind of failure, never the provider's own words. */
function publicReason(err: unknown): string {
  if (err instanceof RateLimitedModelError) return 'The language model is busy (rate limited); please try again shortly.';
  if (err instanceof ModelStreamError) return 'The language model reported an error mid-answer.';
  if (err instanceof ModelError && err.status !== undefined) return `The language model returned an error (HTTP ${err.status}).`;
  return 'The connection to the language model was interrupted.';
}

/** The query of a `search` call, or undefined when its arguments are not `{ "query": "…" }`. */
function queryOf(call: StreamedToolCall): string | undefined {
  try {
    const args: unknown = JSON.parse(call.arguments || '{}');
    const query = typeof args === 'object' && args !== null && 'query' in args ? args.query : undefined;
    return typeof query === 'string' && query.trim() ? query.trim().slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Answers through the model port, streamed token by token. With `maxSearches`
 * and a `search` from the answer service, the model is offered a `search`
 * tool: it may call it up to `maxSearches` times in all, each call answered
 * with the passages it found; a call past the limit, to another tool or with
 * unreadable arguments is refused in its tool result, and a model still
 * calling tools after `maxSearches + 1` rounds has the answer end as failed. No retries,
 * not even before the first token: a retry after text has streamed would
 * repeat it, a rate-limited provider asks for seconds a waiting reader should
 * not spend in silence, and the reader's client can ask again (AI SDK `regenerate`).
 */
export function modelAnswerer(model: ModelConfig, port: ModelPort, maxSearches = 0): Answerer {
  return {
    mode: 'model',
    answer({ prompt, signal, search }: AnswerInput): AnswerRun {
      const usage: Usage = { promptTokens: 0, completionTokens: 0 };
      const tools = search && maxSearches > 0 ? [searchToolDefinition(maxSearches)] : undefined;

      /** One tool call answered: searched while searches remain, refused otherwise. */
      async function answerCall(call: StreamedToolCall, searched: number): Promise<{ content: string; searched: boolean }> {
        const query = call.name === SEARCH_TOOL ? queryOf(call) : undefined;
        if (call.name !== SEARCH_TOOL) return { content: `Refused: there is no tool named ${call.name}; only ${SEARCH_TOOL}.`, searched: false };
        if (!query) return { content: 'Refused: the arguments must be {"query": "…"}.', searched: false };
        if (searched >= maxSearches || !search) {
          return { content: `Refused: at most ${maxSearches} searches per answer. Answer from the passages you have.`, searched: false };
        }
        return { content: await search(query, call.id), searched: true };
      }

      async function* deltas(): AsyncGenerator<string> {
        const messages: ChatMessage[] = [...prompt.messages];
        let searched = 0;
        let toolRounds = 0;
        /** Whether any round wrote text: an answer of none is a failure, not an empty success. */
        let wrote = false;
        try {
          for (;;) {
            let text = '';
            let calls: StreamedToolCall[] = [];
            let finish: string | undefined;
            for await (const batch of port.streamChat({ model: model.name, messages, tools, signal })) {
              if (batch.finishReason) finish = batch.finishReason;
              if (batch.usage) {
                usage.promptTokens += batch.usage.promptTokens;
                usage.completionTokens += batch.usage.completionTokens;
              }
              if (batch.toolCalls) calls = batch.toolCalls;
              if (batch.text) {
                text += batch.text;
                if (batch.text.trim()) wrote = true;
                yield batch.text;
              }
            }
            if (calls.length === 0 || !tools) {
              if (finish === 'length' || finish === 'content_filter') throw new AnswerCutShortError(finish);
              if (!wrote) throw new ModelFailedError('model_failed', 'The language model returned an empty answer.');
              return;
            }
            // One round past the searches is for the refusals; a model still calling tools after it would loop.
            if (++toolRounds > maxSearches + 1) throw new ModelFailedError('model_failed', 'The language model kept searching instead of answering.');
            const ids = calls.map((call, i) => call.id || `call_${messages.length}_${i}`);
            messages.push({
              role: 'assistant',
              content: text || null,
              tool_calls: calls.map((call, i) => ({ id: ids[i]!, type: 'function', function: { name: call.name, arguments: call.arguments } })),
            });
            for (const [i, call] of calls.entries()) {
              const answered = await answerCall({ ...call, id: ids[i]! }, searched);
              if (answered.searched) searched++;
              messages.push({ role: 'tool', tool_call_id: ids[i]!, content: answered.content });
            }
          }
        } catch (err) {
          if (signal.aborted || err instanceof ModelFailedError) throw err;
          throw new ModelFailedError(err instanceof RateLimitedModelError ? 'model_rate_limited' : 'model_failed', publicReason(err), { cause: err });
        }
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
