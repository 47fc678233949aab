import type { Writable } from 'node:stream';
import { drained, type AnswerIds, type AnswerWriter, type Citation, type Usage } from './answer-writer.js';

/**
 * The v1 data stream (AI SDK 4, `streamProtocol: 'data'`): one `CODE:JSON`
 * part per line. The threadId goes out as a message annotation (`8:`) right
 * after the step start, and again on `d:` for callers reading the raw stream.
 */
export class DataStreamWriter implements AnswerWriter {
  readonly headers = {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-cache',
    'x-vercel-ai-data-stream': 'v1',
    'x-accel-buffering': 'no',
  };

  constructor(private readonly out: Writable, private readonly ids: AnswerIds) {}

  ready(): Promise<void> {
    return drained(this.out);
  }

  private part(code: string, value: unknown): void {
    this.out.write(`${code}:${JSON.stringify(value)}\n`);
  }

  start(): void {
    this.part('f', { messageId: this.ids.messageId });
    this.part('8', [{ threadId: this.ids.threadId }]);
  }

  text(delta: string): void {
    if (delta) this.part('0', delta);
  }

  endText(): void {
    // The data stream has no text boundaries.
  }

  sources(citations: Citation[]): void {
    for (const c of citations) this.part('h', { sourceType: 'url', id: c.id, url: c.url, title: c.title });
  }

  finish(usage: Usage): void {
    this.part('e', { finishReason: 'stop', usage, isContinued: false });
    this.part('d', { finishReason: 'stop', usage, threadId: this.ids.threadId });
  }

  error(message: string): void {
    this.part('3', message);
  }
}
