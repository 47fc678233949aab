import type OpenAI from 'openai';
import type { ModelEndpoint } from '../config.js';
import { proxyDispatcher } from '../http/index.js';
import { streamChatCompletion } from './chat-stream.js';
import { toModelError } from './errors.js';
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
  /** One answer streamed token by token, batched per network read. */
  streamChat(input: { model: string; messages: ChatMessage[]; signal: AbortSignal }): AsyncGenerator<ChatStreamBatch>;
  /** One completion that may call tools. */
  chat(input: { model: string; messages: ChatMessage[]; tools: ChatTool[]; signal?: AbortSignal }): Promise<ChatCompletion>;
  /** One vector per text, in order, for one request. */
  embed(input: { model: string; texts: string[]; dimensions?: number | undefined; inputType?: string; signal?: AbortSignal }): Promise<number[][]>;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/** Classifies a failure unless the caller aborted, in which case the caller already knows why. */
function rethrow(err: unknown, signal: AbortSignal | undefined): never {
  if (signal?.aborted) throw err;
  throw toModelError(err);
}

/** A port over an OpenAI-compatible or Azure OpenAI endpoint, with one keep-alive, proxy-aware connection pool. */
export function createModelPort(endpoint: ModelEndpoint): ModelPort {
  const dispatcher = proxyDispatcher(endpoint.proxy);
  const client = openAiClient(endpoint, dispatcher);
  return {
    async *streamChat(input) {
      try {
        yield* streamChatCompletion(client, dispatcher, input);
      } catch (err) {
        rethrow(err, input.signal);
      }
    },
    async chat({ model, messages, tools, signal }) {
      try {
        return await client.chat.completions.create({ model, messages, tools, tool_choice: 'auto' }, signal ? { signal } : {});
      } catch (err) {
        rethrow(err, signal);
      }
    },
    async embed({ model, texts, dimensions, inputType, signal }) {
      try {
        // Plain floats: not every OpenAI-compatible server implements the client's base64 default.
        const params: OpenAI.EmbeddingCreateParams & { input_type?: string } = {
          model,
          input: texts,
          encoding_format: 'float',
          ...(dimensions ? { dimensions } : {}),
          // Servers that tell queries from passages by a field (e5 servers, Voyage) read `input_type`.
          ...(inputType ? { input_type: inputType } : {}),
        };
        const res = await client.embeddings.create(params, signal ? { signal } : {});
        return [...res.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      } catch (err) {
        rethrow(err, signal);
      }
    },
    close: () => dispatcher.close(),
  };
}
