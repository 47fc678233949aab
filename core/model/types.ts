import type { ChatCompletion, ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** The Chat Completions wire types, named once for every caller of the port. */
export type { ChatCompletion, ChatCompletionFunctionTool as ChatTool, ChatCompletionMessageParam as ChatMessage };

/** Tokens one answer cost, from the provider's usage report. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A tool call of a streamed answer, whole: its arguments as the model wrote them (JSON, unchecked). */
export interface StreamedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The text of one network read of a streamed answer (tokens that arrived together), and the usage
 * once known. The tool calls the model made come whole, in the last batch, once the stream has ended.
 */
export interface ChatStreamBatch {
  text: string;
  usage?: ModelUsage;
  toolCalls?: StreamedToolCall[];
  /** Why the provider stopped (`stop`, `length`, `tool_calls`, `content_filter`…), in the batch it arrived in. */
  finishReason?: string;
}
