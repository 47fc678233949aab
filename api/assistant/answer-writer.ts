import { once } from 'node:events';
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
 * Between texts the caller awaits `ready()` when `full()`, so a client that reads slowly
 * slows the model down instead of filling the server's memory.
 */
export interface AnswerWriter {
  readonly headers: Record<string, string>;
  /** Whether the stream is above its high-water mark: the caller then waits for `ready()`. */
  full(): boolean;
  /** Resolves once the stream has room again (at once when it has); never rejects. */
  ready(): Promise<void>;
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

/** The writers' backpressure: resolves when `out` is below its high-water mark again. */
export function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return once(out, 'drain').then(
    () => undefined,
    () => undefined,
  );
}
