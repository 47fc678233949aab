import type { Writable } from 'node:stream';
import type { AnswerFailure } from './model-answerer.js';
import { BatchedStreamWriter, threadMetadata, type AnswerIds, type AnswerWriter, type Citation, type Usage } from './answer-writer.js';
import { SEARCH_TOOL, type SearchCall } from './search-tool.js';

/**
 * The v1 data stream (AI SDK 4, `streamProtocol: 'data'`): one `CODE:JSON`
 * part per line. The thread goes out as a message annotation (`8:`) right
 * after the step start, and its id again on `d:` for callers reading the raw
 * stream. The retrieval is a `search` tool step (`9:` call, `a:` result).
 */
export class DataStreamWriter extends BatchedStreamWriter implements AnswerWriter {
  readonly headers = {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-cache',
    'x-vercel-ai-data-stream': 'v1',
    'x-accel-buffering': 'no',
  };

  constructor(out: Writable, private readonly ids: AnswerIds) {
    super(out);
  }

  private part(code: string, value: unknown): void {
    this.add(`${code}:${JSON.stringify(value)}\n`);
  }

  start(): void {
    this.part('f', { messageId: this.ids.messageId });
    this.part('8', [threadMetadata(this.ids)]);
    this.send();
  }

  retrieval(search: SearchCall): void {
    this.part('9', { toolCallId: search.toolCallId, toolName: SEARCH_TOOL, args: { query: search.query } });
    this.part('a', { toolCallId: search.toolCallId, result: search.hits });
    // Its own step: with maxSteps > 1, useChat resubmits only when the last step ends in tool calls.
    this.part('e', { finishReason: 'tool-calls', usage: { promptTokens: 0, completionTokens: 0 }, isContinued: false });
    this.part('f', { messageId: this.ids.messageId });
    this.send();
  }

  text(delta: string): void {
    if (delta) this.part('0', delta);
    this.send();
  }

  endText(): void {
    // The data stream has no text boundaries.
  }

  sources(citations: Citation[]): void {
    for (const c of citations) this.part('h', { sourceType: 'url', id: c.id, url: c.url, title: c.title });
    this.send();
  }

  finish(usage: Usage): void {
    this.part('e', { finishReason: 'stop', usage, isContinued: false });
    this.part('d', { finishReason: 'stop', usage, threadId: this.ids.threadId });
    this.send();
  }

  error(failure: AnswerFailure): void {
    // The code as an annotation (`message.annotations`) just before the error part, which carries a bare string.
    this.part('8', [{ errorCode: failure.code }]);
    this.part('3', failure.message);
    this.send();
  }
}
