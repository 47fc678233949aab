import type { Writable } from 'node:stream';

/** A citation as both protocols send it: `src_N` matches the `[N]` markers in the answer. */
export interface Citation {
  id: string;
  url: string;
  title: string;
  path: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/**
 * Writes one assistant answer in a client protocol. Calls come in order:
 * start, text…, then either (endText, sources, finish) or error.
 */
export interface AnswerWriter {
  readonly headers: Record<string, string>;
  start(): void;
  text(delta: string): void;
  endText(): void;
  sources(citations: Citation[]): void;
  finish(usage: Usage): void;
  error(message: string): void;
}

export interface AnswerIds {
  messageId: string;
  threadId: string;
}

export type WriterFactory = (out: Writable, ids: AnswerIds) => AnswerWriter;
