import type { Writable } from 'node:stream';
import type { SearchCall } from './search-tool.js';

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
 * start, retrieval, text…, then either (endText, sources, finish) or error.
 */
export interface AnswerWriter {
  readonly headers: Record<string, string>;
  start(): void;
  /** The retrieval as a finished `search` tool step, before the answer's own step. */
  retrieval(search: SearchCall): void;
  text(delta: string): void;
  endText(): void;
  sources(citations: Citation[]): void;
  finish(usage: Usage): void;
  error(message: string): void;
}

export interface AnswerIds {
  messageId: string;
  threadId: string;
  /** Only when this answer creates the thread: the key is shown once. */
  threadKey?: string;
}

/** The thread as the client keeps it: id, and the key on creation. */
export function threadMetadata(ids: AnswerIds): { threadId: string; threadKey?: string } {
  return { threadId: ids.threadId, ...(ids.threadKey ? { threadKey: ids.threadKey } : {}) };
}

export type WriterFactory = (out: Writable, ids: AnswerIds) => AnswerWriter;
