import type { ChatCompletion, ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** The Chat Completions wire types, named once for every caller of the port. */
export type { ChatCompletion, ChatCompletionFunctionTool as ChatTool, ChatCompletionMessageParam as ChatMessage };

/** Tokens one answer cost, from the provider's usage report. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

/** The text of one network read of a streamed answer (tokens that arrived together), and the usage once known. */
export interface ChatStreamBatch {
  text: string;
  usage?: ModelUsage;
}
