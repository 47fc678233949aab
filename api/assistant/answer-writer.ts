import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { AnswerFailure } from './model-answerer.js';
import type { RewriteStatus } from './query-rewrite.js';
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
 * start, retrieval, then text… with a retrieval wherever the model searched,
 * then either (endText, sources, finish) or error.
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
  /**
   * Runs `calls` (calls of this writer in their usual order) and writes all their parts to the
   * stream as one chunk, where each call alone would write its own: the answer's head (start and
   * first retrieval) and its tail (endText, sources, finish) each cost one write.
   */
  inOneWrite(calls: () => void): void;
  /** A retrieval as a finished `search` tool step: the first before the answer, then each search the model ran. */
  retrieval(search: SearchCall): void;
  text(delta: string): void;
  endText(): void;
  sources(citations: Citation[]): void;
  finish(usage: Usage): void;
  /** Ends the answer with an error part saying `failure.message`, its code in the message metadata (v2) or an annotation (v1). */
  error(failure: AnswerFailure): void;
}

export interface AnswerIds {
  messageId: string;
  threadId: string;
  /** Only when this answer creates the thread: the key is shown once. */
  threadKey?: string;
  /** How the model's query rewrite went, when one was asked for (`rewritten`, `unchanged`, `timeout`, `failed`). */
  queryRewrite?: RewriteStatus | undefined;
}

/** The answer's metadata as the client keeps it: the thread's id, its key on creation, and how the query was rewritten. */
export function threadMetadata(ids: AnswerIds): { threadId: string; threadKey?: string; queryRewrite?: RewriteStatus } {
  return { threadId: ids.threadId, ...(ids.threadKey ? { threadKey: ids.threadKey } : {}), ...(ids.queryRewrite ? { queryRewrite: ids.queryRewrite } : {}) };
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

/**
 * What both stream formats share: each call's encoded parts go to `out` as one write, and
 * inside `inOneWrite` several calls' parts wait for one write; backpressure is `out`'s.
 */
export abstract class BatchedStreamWriter {
  /** The encoded parts of the call under way. */
  private pending = '';
  /** Inside `inOneWrite`: the calls' parts wait for its one write. */
  private holding = false;

  constructor(private readonly out: Writable) {}

  full(): boolean {
    return this.out.writableNeedDrain;
  }

  ready(): Promise<void> {
    return drained(this.out);
  }

  inOneWrite(calls: () => void): void {
    this.holding = true;
    try {
      calls();
    } finally {
      this.holding = false;
    }
    this.send();
  }

  /** Adds encoded parts to the call's write. */
  protected add(encoded: string): void {
    this.pending += encoded;
  }

  /** Writes what the call added, unless `inOneWrite` holds it. */
  protected send(): void {
    if (!this.pending || this.holding) return;
    this.out.write(this.pending);
    this.pending = '';
  }
}
