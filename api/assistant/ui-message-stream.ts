import type { Writable } from 'node:stream';
import { drained, type AnswerIds, type AnswerWriter, type Citation } from './answer-writer.js';

const TEXT_ID = 'txt_0';

/**
 * The v2 UI message stream (AI SDK 5, 6, 7). Chunks carry only the fields
 * every client version accepts: the threadId rides in `messageMetadata`, and
 * `finish` has no `finishReason` (see protocols/README.md).
 */
export class UiMessageStreamWriter implements AnswerWriter {
  readonly headers = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
  };
  private textOpen = false;

  constructor(private readonly out: Writable, private readonly ids: AnswerIds) {}

  ready(): Promise<void> {
    return drained(this.out);
  }

  private chunk(value: Record<string, unknown>): void {
    // Events end with a blank line; a single newline makes the clients drop everything.
    this.out.write(`data: ${JSON.stringify(value)}\n\n`);
  }

  start(): void {
    this.chunk({ type: 'start', messageId: this.ids.messageId, messageMetadata: { threadId: this.ids.threadId } });
    this.chunk({ type: 'start-step' });
  }

  text(delta: string): void {
    if (!delta) return;
    if (!this.textOpen) {
      this.chunk({ type: 'text-start', id: TEXT_ID });
      this.textOpen = true;
    }
    this.chunk({ type: 'text-delta', id: TEXT_ID, delta });
  }

  endText(): void {
    if (this.textOpen) this.chunk({ type: 'text-end', id: TEXT_ID });
    this.textOpen = false;
  }

  sources(citations: Citation[]): void {
    for (const c of citations) this.chunk({ type: 'source-url', sourceId: c.id, url: c.url, title: c.title });
  }

  finish(): void {
    this.chunk({ type: 'finish-step' });
    this.chunk({ type: 'finish', messageMetadata: { threadId: this.ids.threadId } });
    this.out.write('data: [DONE]\n\n');
  }

  error(message: string): void {
    this.chunk({ type: 'error', errorText: message });
    this.out.write('data: [DONE]\n\n');
  }
}
