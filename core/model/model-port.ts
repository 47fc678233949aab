import type OpenAI from 'openai';
import type { ModelEndpoint } from '../config.js';
import { proxyDispatcher } from '../http/index.js';
import { wellFormed } from '../unicode.js';
import { inSpan, markFailed, SpanKind, tracer } from '../telemetry/index.js';
import { streamChatCompletion } from './chat-stream.js';
import { notACompletion, toModelError } from './errors.js';
import { openAiClient } from './openai-client.js';
import type { ChatCompletion, ChatMessage, ChatStreamBatch, ChatTool } from './types.js';

/**
 * The one way Quire talks to a language model: streamed answers for the
 * assistant, tool calls for the agent, embeddings for retrieval. Every
 * failure is a ModelError (permanent, transient or rate-limited); an abort
 * by the caller's signal is rethrown as it came. Nothing is retried here:
 * activities leave it to Temporal, and the API lets the reader ask again.
 */
export interface ModelPort {
  /** One answer streamed token by token, batched per network read; with `tools`, the calls it made come last. */
  streamChat(input: { model: string; messages: ChatMessage[]; tools?: ChatTool[] | undefined; signal: AbortSignal }): AsyncGenerator<ChatStreamBatch>;
  /**
   * One completion that may call tools (none offered: a plain completion). `timeoutMs` replaces the
   * client's own 600 s: a caller with a deadline of its own (the agent's turn) gives its remaining time.
   */
  chat(input: { model: string; messages: ChatMessage[]; tools: ChatTool[]; signal?: AbortSignal; timeoutMs?: number }): Promise<ChatCompletion>;
  /** One vector per text, in order, for one request; `base64`: ask for (and decode) base64 float32 vectors. */
  embed(input: { model: string; texts: string[]; dimensions?: number | undefined; inputType?: string; base64?: boolean; signal?: AbortSignal }): Promise<number[][]>;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/**
 * Classifies a failure unless the caller aborted, in which case the caller already knows why. The
 * endpoint's key is masked in the message: some gateways quote the key they were sent in their
 * error, and the message reaches the job's error, its events and the workflow's history.
 */
function rethrow(err: unknown, signal: AbortSignal | undefined, apiKey: string | undefined): never {
  if (signal?.aborted) throw err;
  const failure = toModelError(err);
  if (apiKey && failure.message.includes(apiKey)) failure.message = failure.message.replaceAll(apiKey, '[redacted]');
  throw failure;
}

/**
 * A span per model call, named and attributed by the GenAI semantic conventions: the operation,
 * the model and the token usage; never the messages, the answer or the tool arguments.
 */
function genAiAttributes(endpoint: ModelEndpoint, operation: 'chat' | 'embeddings', model: string) {
  return { 'gen_ai.operation.name': operation, 'gen_ai.system': endpoint.provider === 'azure' ? 'az.ai.openai' : 'openai', 'gen_ai.request.model': model };
}

/** A port over an OpenAI-compatible or Azure OpenAI endpoint, with one keep-alive, proxy-aware connection pool. */
export function createModelPort(endpoint: ModelEndpoint): ModelPort {
  const dispatcher = proxyDispatcher(endpoint.proxy);
  const client = openAiClient(endpoint, dispatcher);
  return {
    async *streamChat(input) {
      // Not the active span: the generator resumes in its reader's context, between reads.
      const span = tracer.startSpan(`chat ${input.model}`, { kind: SpanKind.CLIENT, attributes: genAiAttributes(endpoint, 'chat', input.model) });
      try {
        for await (const batch of streamChatCompletion(client, dispatcher, input, endpoint.streamIdleTimeoutMs)) {
          if (batch.usage) span.setAttributes({ 'gen_ai.usage.input_tokens': batch.usage.promptTokens, 'gen_ai.usage.output_tokens': batch.usage.completionTokens });
          if (batch.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [batch.finishReason]);
          yield batch;
        }
      } catch (err) {
        markFailed(span, err);
        rethrow(err, input.signal, endpoint.apiKey);
      } finally {
        span.end();
      }
    },
    chat: ({ model, messages, tools, signal, timeoutMs }) =>
      inSpan(`chat ${model}`, genAiAttributes(endpoint, 'chat', model), async (span) => {
        try {
          const offered = tools.length > 0 ? { tools, tool_choice: 'auto' as const } : {};
          const completion = await client.chat.completions.create({ model, messages: wellFormed(messages), ...offered }, { ...(signal ? { signal } : {}), ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) });
          if (!Array.isArray(completion.choices) || completion.choices.length === 0) throw notACompletion(completion);
          span.setAttributes({
            'gen_ai.response.model': completion.model,
            'gen_ai.response.finish_reasons': completion.choices.map((c) => c.finish_reason),
            ...(completion.usage
              ? { 'gen_ai.usage.input_tokens': completion.usage.prompt_tokens, 'gen_ai.usage.output_tokens': completion.usage.completion_tokens }
              : {}),
          });
          return completion;
        } catch (err) {
          rethrow(err, signal, endpoint.apiKey);
        }
      }, SpanKind.CLIENT),
    embed: ({ model, texts, dimensions, inputType, base64, signal }) =>
      inSpan(`embeddings ${model}`, genAiAttributes(endpoint, 'embeddings', model), async (span) => {
        try {
          // Plain floats unless asked: not every OpenAI-compatible server implements the client's base64
          // default. Without a format the client asks for base64 and decodes it to numbers itself.
          const params: OpenAI.EmbeddingCreateParams & { input_type?: string } = {
            model,
            input: texts,
            ...(base64 ? {} : { encoding_format: 'float' as const }),
            ...(dimensions ? { dimensions } : {}),
            // Servers that tell queries from passages by a field (e5 servers, Voyage) read `input_type`.
            ...(inputType ? { input_type: inputType } : {}),
          };
          const res = await client.embeddings.create(params, signal ? { signal } : {});
          if (res.usage) span.setAttribute('gen_ai.usage.input_tokens', res.usage.prompt_tokens);
          return [...res.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
        } catch (err) {
          rethrow(err, signal, endpoint.apiKey);
        }
      }, SpanKind.CLIENT),
    close: () => dispatcher.close(),
  };
}
