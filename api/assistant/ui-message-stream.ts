import type { Writable } from 'node:stream';
import type { AnswerFailure } from './model-answerer.js';
import { BatchedStreamWriter, threadMetadata, type AnswerIds, type AnswerWriter, type Citation } from './answer-writer.js';
import { SEARCH_TOOL, type SearchCall } from './search-tool.js';

/**
 * The v2 UI message stream (AI SDK 5, 6, 7). Chunks carry only the fields
 * every client version accepts, the strict 5.0.0, 6.0.0 and 7.0.0 included:
 * the thread rides in `messageMetadata`, `finish` has no `finishReason`, and
 * the tool chunks have no `dynamic` or `providerMetadata` (see protocols/README.md).
 */
export class UiMessageStreamWriter extends BatchedStreamWriter implements AnswerWriter {
  readonly headers = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
  };
  private textOpen = false;
  /** Text parts so far: a search between texts ends one and the next text starts another. */
  private texts = 0;

  constructor(out: Writable, private readonly ids: AnswerIds) {
    super(out);
  }

  private chunk(value: Record<string, unknown>): void {
    // Events end with a blank line; a single newline makes the clients drop everything.
    this.add(`data: ${JSON.stringify(value)}\n\n`);
  }

  start(): void {
    this.chunk({ type: 'start', messageId: this.ids.messageId, messageMetadata: threadMetadata(this.ids) });
    this.chunk({ type: 'start-step' });
    this.send();
  }

  retrieval(search: SearchCall): void {
    // A step of its own, like a model's tool call: a client that resubmits after completed tool calls sees text last.
    this.closeText();
    this.chunk({ type: 'tool-input-available', toolCallId: search.toolCallId, toolName: SEARCH_TOOL, input: { query: search.query } });
    this.chunk({ type: 'tool-output-available', toolCallId: search.toolCallId, output: search.hits });
    this.chunk({ type: 'finish-step' });
    this.chunk({ type: 'start-step' });
    this.send();
  }

  private textId(): string {
    return `txt_${this.texts}`;
  }

  text(delta: string): void {
    if (!delta) return;
    if (!this.textOpen) {
      this.chunk({ type: 'text-start', id: this.textId() });
      this.textOpen = true;
    }
    this.chunk({ type: 'text-delta', id: this.textId(), delta });
    this.send();
  }

  endText(): void {
    this.closeText();
    this.send();
  }

  private closeText(): void {
    if (this.textOpen) this.chunk({ type: 'text-end', id: this.textId() });
    if (this.textOpen) this.texts++;
    this.textOpen = false;
  }

  sources(citations: Citation[]): void {
    for (const c of citations) this.chunk({ type: 'source-url', sourceId: c.id, url: c.url, title: c.title });
    this.send();
  }

  finish(): void {
    this.chunk({ type: 'finish-step' });
    this.chunk({ type: 'finish', messageMetadata: threadMetadata(this.ids) });
    this.add('data: [DONE]\n\n');
    this.send();
  }

  error(failure: AnswerFailure): void {
    // The error chunk takes no field but `errorText` in the strict releases: the code rides in the message metadata,
    // which every client merges into the message's (`message.metadata.errorCode`), and the widget reads.
    this.chunk({ type: 'message-metadata', messageMetadata: { errorCode: failure.code } });
    this.chunk({ type: 'error', errorText: failure.message });
    this.add('data: [DONE]\n\n');
    this.send();
  }
}
